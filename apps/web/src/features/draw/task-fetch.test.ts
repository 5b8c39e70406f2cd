import type { TaskTreeNode } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { planTaskFetch } from './task-fetch';

function node(id: string, kind: TaskTreeNode['kind'], children?: TaskTreeNode[]): TaskTreeNode {
  return {
    id,
    key: id,
    name: id,
    kind,
    parentId: null,
    icon: null,
    cover: null,
    description: '',
    published: true,
    children,
  };
}

const portrait = node('c1', 'category', [node('t1', 'task', [node('p1', 'template')]), node('t2', 'task')]);
const poster = node('c2', 'category', [node('t3', 'task')]);

describe('tasks fetch (spec §4)', () => {
  it('uses the children of the first node and fetches by the first child when it is a task', () => {
    const plan = planTaskFetch([portrait, poster]);
    expect(plan.category?.id).toBe('c1');
    expect(plan.twoTaskData.map((child) => child.id)).toEqual(['t1', 't2']);
    expect(plan.taskId).toBe('t1');
  });

  it('fetches by the parent id when the first child is a template', () => {
    const task = node('t9', 'task', [node('p9', 'template'), node('p10', 'template')]);
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
    const empty = node('c3', 'category');
    expect(planTaskFetch([empty])).toEqual({ category: empty, twoTaskData: [], taskId: null });
  });
});
