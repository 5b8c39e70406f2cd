import type { TaskNodeKind } from '@huafang/contracts';

export type TreeAction = 'createTask' | 'createTemplate' | 'rename' | 'copy' | 'move' | 'delete';

export const TREE_ACTION_LABELS: Record<TreeAction, string> = {
  createTask: '新建任务',
  createTemplate: '新建模板',
  rename: '重命名',
  copy: '复制',
  move: '移动',
  delete: '删除',
};

/** Categories hold tasks and stay at the top; tasks hold templates; templates are leaves. */
const ACTIONS: Record<TaskNodeKind, TreeAction[]> = {
  category: ['createTask', 'rename', 'copy', 'delete'],
  task: ['createTemplate', 'rename', 'copy', 'move', 'delete'],
  template: ['rename', 'copy', 'move', 'delete'],
};

export function actionsFor(kind: TaskNodeKind): TreeAction[] {
  return ACTIONS[kind];
}

/** What deleting takes with it, said in the confirmation. */
export function deleteWarning(kind: TaskNodeKind): string {
  if (kind === 'category') return '分类下不能还有任务，请先删除或移走其中的任务。';
  if (kind === 'task') return '任务下的所有模板会一并删除，且无法恢复。';
  return '模板及其所有步骤会被删除，且无法恢复。';
}
