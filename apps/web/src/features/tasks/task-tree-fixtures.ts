import type { TaskNodeKind, TaskTreeNode } from '@huafang/contracts';

/** A published node of the task tree as the public tree answers it, for the web unit tests. */
export function taskTreeNode(kind: TaskNodeKind, id: string, children?: TaskTreeNode[], name = id): TaskTreeNode {
  return {
    id,
    key: id,
    name,
    kind,
    parentId: null,
    icon: null,
    cover: null,
    description: '',
    published: true,
    children,
  };
}
