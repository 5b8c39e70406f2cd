import type { TaskTreeNode } from '@huafang/contracts';

/** The tasks of a category node (its other children, if any, are not cards). */
export function tasksOf(category: TaskTreeNode | undefined): TaskTreeNode[] {
  return (category?.children ?? []).filter((child) => child.kind === 'task');
}

/** The category holding the task, when the tree shows it. */
export function categoryOfTask(tree: TaskTreeNode[] | undefined, taskId: string | undefined): TaskTreeNode | undefined {
  if (!tree || !taskId) return undefined;
  return tree.find((category) => tasksOf(category).some((task) => task.id === taskId));
}
