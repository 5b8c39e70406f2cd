import type { TaskNodeKind, TaskTreeNode } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { taskTreeNode } from '../tasks/task-tree-fixtures';
import { galleryTemplateOptions, templateOptionGroups } from './template-options';

/** Names unlike the ids, so the expectations show which of the two a label uses. */
function node(kind: TaskNodeKind, id: string, children?: TaskTreeNode[]): TaskTreeNode {
  return taskTreeNode(kind, id, children, `名${id}`);
}

describe('templateOptionGroups', () => {
  it('groups templates under 分类 · 任务, also those placed straight under a category', () => {
    const tree = [
      node('category', 'c1', [
        node('task', 't1', [node('template', 'p1'), node('template', 'p2')]),
        node('task', 't2', []),
      ]),
      node('category', 'c2', [node('template', 'p3')]),
    ];
    expect(templateOptionGroups(tree)).toEqual([
      {
        label: '名c1 · 名t1',
        title: '名c1 · 名t1',
        options: [
          { label: '名p1', value: 'p1' },
          { label: '名p2', value: 'p2' },
        ],
      },
      { label: '名c2', title: '名c2', options: [{ label: '名p3', value: 'p3' }] },
    ]);
  });
});

describe('galleryTemplateOptions', () => {
  it('offers 自由创作 first, for the works made without a template', () => {
    const options = galleryTemplateOptions([node('category', 'c1', [node('task', 't1', [node('template', 'p1')])])]);
    expect(options[0]).toEqual({ label: '自由创作', value: 'free' });
    expect(options.slice(1)).toEqual([
      { label: '名c1 · 名t1', title: '名c1 · 名t1', options: [{ label: '名p1', value: 'p1' }] },
    ]);
  });
});
