import { describe, expect, it } from 'vitest';
import { TREE } from './tree-fixtures';
import { filterTree, indexTree, moveTargetsOf, parentKeys, statusTagsOf } from './tree-model';

describe('indexTree', () => {
  it('knows each node’s parent and place', () => {
    const entry = indexTree(TREE).get('场景');
    expect(entry?.parent?.key).toBe('主图');
    expect(entry?.index).toBe(1);
    expect(indexTree(TREE).get('人像')?.parent).toBeNull();
  });
});

describe('filterTree', () => {
  it('keeps matches with their ancestors, and a matching task with all its templates', () => {
    expect(filterTree(TREE, '白').map((n) => n.key)).toEqual(['电商']);
    expect(filterTree(TREE, '白')[0]?.children?.[0]?.children?.map((n) => n.key)).toEqual(['白底']);
    expect(filterTree(TREE, '主图')[0]?.children?.[0]?.children).toHaveLength(2);
  });

  it('returns the tree unchanged for a blank keyword and nothing for a miss', () => {
    expect(filterTree(TREE, '  ')).toBe(TREE);
    expect(filterTree(TREE, '没有')).toEqual([]);
  });
});

describe('parentKeys', () => {
  it('lists the nodes that have children', () => {
    expect(parentKeys(TREE)).toEqual(['电商', '主图', '人像']);
  });
});

describe('statusTagsOf', () => {
  const texts = (node: Parameters<typeof statusTagsOf>[0]) => statusTagsOf(node).map((tag) => tag.text);

  it('names templates 草稿 or 已发布, and both while a published one has a newer draft', () => {
    expect(texts({ kind: 'template', published: false, status: 'draft' })).toEqual(['草稿']);
    expect(texts({ kind: 'template', published: true, status: 'published' })).toEqual(['已发布']);
    expect(texts({ kind: 'template', published: true, status: 'draft' })).toEqual(['已发布', '草稿']);
  });

  it('names categories and tasks 未发布 or 已发布', () => {
    expect(texts({ kind: 'task', published: false })).toEqual(['未发布']);
    expect(texts({ kind: 'category', published: true })).toEqual(['已发布']);
  });
});

describe('moveTargetsOf', () => {
  it('offers other categories for a task and other tasks for a template', () => {
    const byKey = indexTree(TREE);
    const task = byKey.get('海报')?.node;
    const template = byKey.get('白底')?.node;
    if (!task || !template) throw new Error('fixture');
    expect(moveTargetsOf(TREE, task)).toEqual([{ value: '人像', label: '人像' }]);
    expect(moveTargetsOf(TREE, template).map((t) => t.label)).toEqual(['电商 / 海报', '人像 / 证件照']);
  });
});
