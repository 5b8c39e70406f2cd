import type { TaskNodeKind, TaskTreeNode } from '@huafang/contracts';

/** A small admin tree for the tests: 电商 (主图: 白底, 场景; 海报) and 人像 (证件照). */
export function node(kind: TaskNodeKind, id: string, parentId: string | null, children?: TaskTreeNode[]): TaskTreeNode {
  return {
    id,
    key: id,
    name: id,
    kind,
    parentId,
    icon: null,
    cover: null,
    description: '',
    published: kind !== 'template',
    ...(kind === 'template' ? { status: 'draft' as const } : {}),
    ...(children ? { children } : {}),
  };
}

export const TREE: TaskTreeNode[] = [
  node('category', '电商', null, [
    node('task', '主图', '电商', [node('template', '白底', '主图'), node('template', '场景', '主图')]),
    node('task', '海报', '电商', []),
  ]),
  node('category', '人像', null, [node('task', '证件照', '人像', [])]),
];
