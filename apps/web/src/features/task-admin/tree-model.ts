import type { TaskNodeKind, TaskTreeNode } from '@huafang/contracts';

/** Where a node sits in the tree: its parent (null at the top) and its place among its siblings. */
export interface TreeEntry {
  node: TaskTreeNode;
  parent: TaskTreeNode | null;
  siblings: TaskTreeNode[];
  index: number;
}

export function indexTree(nodes: TaskTreeNode[], parent: TaskTreeNode | null = null): Map<string, TreeEntry> {
  const entries = new Map<string, TreeEntry>();
  nodes.forEach((node, index) => {
    entries.set(node.key, { node, parent, siblings: nodes, index });
    for (const [key, entry] of indexTree(node.children ?? [], node)) entries.set(key, entry);
  });
  return entries;
}

/**
 * The nodes whose name contains `keyword` (ignoring case), with their ancestors so they stay reachable;
 * a matching category or task keeps all of its children.
 */
export function filterTree(nodes: TaskTreeNode[], keyword: string): TaskTreeNode[] {
  const wanted = keyword.trim().toLowerCase();
  if (!wanted) return nodes;
  return nodes.flatMap((node) => {
    if (node.name.toLowerCase().includes(wanted)) return [node];
    const children = filterTree(node.children ?? [], wanted);
    return children.length > 0 ? [{ ...node, children }] : [];
  });
}

/** Keys of every node that has children: expanding them all shows the whole (filtered) tree. */
export function parentKeys(nodes: TaskTreeNode[]): string[] {
  return nodes.flatMap((node) => (node.children?.length ? [node.key, ...parentKeys(node.children)] : []));
}

export interface StatusTag {
  text: string;
  color: string;
}

const PUBLISHED: StatusTag = { text: '已发布', color: 'green' };
const DRAFT: StatusTag = { text: '草稿', color: 'orange' };

/**
 * 未发布 / 已发布 for categories and tasks. A template is 草稿 until published; a published one edited since
 * shows 已发布 and 草稿, because users keep the published version until the draft is published.
 */
export function statusTagsOf(node: Pick<TaskTreeNode, 'kind' | 'published' | 'status'>): StatusTag[] {
  if (node.kind !== 'template') return [node.published ? PUBLISHED : { text: '未发布', color: 'default' }];
  if (node.status === 'published') return [PUBLISHED];
  return node.published ? [PUBLISHED, DRAFT] : [DRAFT];
}

export const KIND_LABELS: Record<TaskNodeKind, string> = { category: '分类', task: '任务', template: '模板' };

export interface MoveTarget {
  value: string;
  label: string;
}

/** Where 移动 may put a node: a task into another category, a template into another task. */
export function moveTargetsOf(tree: TaskTreeNode[], node: TaskTreeNode): MoveTarget[] {
  if (node.kind === 'task') {
    return tree.filter((category) => category.id !== node.parentId).map(({ id, name }) => ({ value: id, label: name }));
  }
  if (node.kind === 'template') {
    return tree.flatMap((category) =>
      (category.children ?? [])
        .filter((task) => task.id !== node.parentId)
        .map((task) => ({ value: task.id, label: `${category.name} / ${task.name}` })),
    );
  }
  return [];
}
