import { describe, expect, it } from 'vitest';
import { taskTreeNode } from '../tasks/task-tree-fixtures';
import { planTaskFetch } from './task-fetch';

const portrait = taskTreeNode('category', 'c1', [
  taskTreeNode('task', 't1', [taskTreeNode('template', 'p1')]),
  taskTreeNode('task', 't2'),
]);
const poster = taskTreeNode('category', 'c2', [taskTreeNode('task', 't3')]);

describe('tasks fetch (spec §4)', () => {
  it('uses the children of the first node and fetches by the first child when it is a task', () => {
    const plan = planTaskFetch([portrait, poster]);
    expect(plan.category?.id).toBe('c1');
    expect(plan.twoTaskData.map((child) => child.id)).toEqual(['t1', 't2']);
    expect(plan.taskId).toBe('t1');
  });

  it('fetches by the parent id when the first child is a template', () => {
    const task = taskTreeNode('task', 't9', [taskTreeNode('template', 'p9'), taskTreeNode('template', 'p10')]);
    const plan = planTaskFetch([task]);
    expect(plan.twoTaskData.map((child) => child.id)).toEqual(['p9', 'p10']);
    expect(plan.taskId).toBe('t9');
  });

  it('follows the category a tab chose, and falls back to the first node for an unknown one', () => {
    expect(planTaskFetch([portrait, poster], 'c2').taskId).toBe('t3');
    expect(planTaskFetch([portrait, poster], 'gone').category?.id).toBe('c1');
  });

  it('has nothing to fetch for an empty tree or an empty category', () => {
    expect(planTaskFetch([])).toEqual({ category: null, twoTaskData: [], taskId: null });
    const empty = taskTreeNode('category', 'c3');
    expect(planTaskFetch([empty])).toEqual({ category: empty, twoTaskData: [], taskId: null });
  });
});
