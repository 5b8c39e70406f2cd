import { describe, expect, it } from 'vitest';
import { moveRequestOf, relativeDropPosition } from './tree-drop';
import { TREE } from './tree-fixtures';

const drop = (dragKey: string, dropKey: string, position: -1 | 0 | 1, dropExpanded = false) =>
  moveRequestOf(TREE, { dragKey, dropKey, position, dropExpanded });

describe('relativeDropPosition', () => {
  it('turns antd’s list index into above, onto or below the target', () => {
    expect(relativeDropPosition(1, '0-0-2')).toBe(-1);
    expect(relativeDropPosition(2, '0-0-2')).toBe(0);
    expect(relativeDropPosition(3, '0-0-2')).toBe(1);
  });
});

describe('moveRequestOf', () => {
  it('reorders categories at the top level', () => {
    expect(drop('人像', '电商', -1)).toEqual({ kind: 'task', body: { taskId: '人像', parentId: null, sort: 0 } });
  });

  it('reorders tasks inside their category, counting positions without the dragged task', () => {
    expect(drop('主图', '海报', 1)).toEqual({ kind: 'task', body: { taskId: '主图', parentId: '电商', sort: 1 } });
  });

  it('moves a task into another category when dropped onto it', () => {
    expect(drop('海报', '人像', 0)).toEqual({ kind: 'task', body: { taskId: '海报', parentId: '人像', sort: 0 } });
  });

  it('moves a task beside a task of another category', () => {
    expect(drop('海报', '证件照', 1)).toEqual({ kind: 'task', body: { taskId: '海报', parentId: '人像', sort: 1 } });
  });

  it('puts a node below an open parent as its first child', () => {
    expect(drop('海报', '人像', 1, true)).toEqual({
      kind: 'task',
      body: { taskId: '海报', parentId: '人像', sort: 0 },
    });
  });

  it('reorders and moves templates between tasks', () => {
    expect(drop('场景', '白底', -1)).toEqual({
      kind: 'template',
      body: { templateId: '场景', taskId: '主图', sort: 0 },
    });
    expect(drop('白底', '证件照', 0)).toEqual({
      kind: 'template',
      body: { templateId: '白底', taskId: '证件照', sort: 0 },
    });
  });

  it('leaves the rules of categories and tasks to the server', () => {
    expect(drop('人像', '主图', 0)).toEqual({ kind: 'task', body: { taskId: '人像', parentId: '主图', sort: 0 } });
    expect(drop('白底', '电商', 0)).toEqual({
      kind: 'template',
      body: { templateId: '白底', taskId: '电商', sort: 0 },
    });
    expect(drop('海报', '人像', -1)).toEqual({ kind: 'task', body: { taskId: '海报', parentId: null, sort: 1 } });
  });

  it('refuses drops the request cannot express', () => {
    expect(drop('白底', '电商', -1)).toEqual({ kind: 'refused', reason: '模板只能放在任务下' });
    expect(drop('海报', '白底', 0)).toEqual({ kind: 'refused', reason: '模板下不能再放其他内容' });
  });

  it('ignores drops that change nothing', () => {
    expect(drop('白底', '场景', -1)).toEqual({ kind: 'none' });
    expect(drop('场景', '白底', 1)).toEqual({ kind: 'none' });
    expect(drop('主图', '主图', 0)).toEqual({ kind: 'none' });
    expect(drop('不存在', '主图', 0)).toEqual({ kind: 'none' });
  });
});
