import { describe, expect, it } from 'vitest';
import { actionsFor, deleteWarning, TREE_ACTION_LABELS } from './tree-actions';

describe('tree actions', () => {
  it('creates children one level down and moves only tasks and templates', () => {
    expect(actionsFor('category').map((action) => TREE_ACTION_LABELS[action])).toEqual([
      '新建任务',
      '重命名',
      '复制',
      '删除',
    ]);
    expect(actionsFor('task')).toContain('createTemplate');
    expect(actionsFor('template')).not.toContain('createTemplate');
    expect(actionsFor('category')).not.toContain('move');
  });

  it('warns about what a delete takes with it', () => {
    expect(deleteWarning('task')).toContain('模板');
    expect(deleteWarning('category')).toContain('任务');
  });
});
