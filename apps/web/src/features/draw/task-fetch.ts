import type { TaskTreeNode } from '@huafang/contracts';

export interface TaskFetchPlan {
  /** The category whose tasks are shown (a category tab). */
  category: TaskTreeNode | null;
  /** Its children: twoTaskData. */
  twoTaskData: TaskTreeNode[];
  /** The taskId to fetch the template list by; null when the category has nothing in it. */
  taskId: string | null;
}

/**
 * Spec §4 Tasks fetch: from the tree take a node (the first one unless a tab chose another) and its children;
 * the template list is fetched by the node's own id when its first child is a template, otherwise by the
 * first child's id.
 */
export function planTaskFetch(tree: TaskTreeNode[], categoryId?: string | null): TaskFetchPlan {
  const category = tree.find((node) => node.id === categoryId) ?? tree[0] ?? null;
  const twoTaskData = category?.children ?? [];
  const first = twoTaskData[0];
  const taskId = !category || !first ? null : first.kind === 'template' ? category.id : first.id;
  return { category, twoTaskData, taskId };
}
