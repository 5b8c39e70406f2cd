import { NEGATIVE_PROMPT_TYPE, type PromptTreeNode } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import {
  addItem,
  cleanAdminGroup,
  customItem,
  filterPromptTree,
  libraryItem,
  removeItem,
  toggleItem,
  wordOf,
} from './prompt-group-ops';

const MASTERPIECE = { id: 'w1', label: '杰作', text: 'masterpiece' };

describe('prompt group items', () => {
  it('adds library words as the template’s own (custom 0)', () => {
    expect(libraryItem(MASTERPIECE, 'positive')).toEqual({
      id: 'w1',
      groupName: '杰作',
      promptText: 'masterpiece',
      custom: '0',
    });
  });

  it('marks every negative item with type 10', () => {
    expect(libraryItem(MASTERPIECE, 'negative').type).toBe(NEGATIVE_PROMPT_TYPE);
    expect(customItem({ id: 'c1', label: '水印', text: 'watermark' }, 'negative').type).toBe(NEGATIVE_PROMPT_TYPE);
  });

  it('adds typed words as custom 1, falling back to the label without English', () => {
    expect(customItem({ id: 'c1', label: ' 赛博朋克 ', text: ' cyberpunk ' }, 'positive')).toEqual({
      id: 'c1',
      groupName: '赛博朋克',
      promptText: 'cyberpunk',
      custom: '1',
    });
    expect(customItem({ id: 'c2', label: '夕阳', text: '' }, 'positive').promptText).toBe('夕阳');
  });

  it('does not add the same word twice and toggles library words', () => {
    const item = libraryItem(MASTERPIECE, 'positive');
    const twin = customItem({ id: 'c9', label: '杰作', text: 'Masterpiece' }, 'positive');
    expect(addItem(addItem([], item), twin)).toEqual([item]);
    expect(toggleItem([item], item)).toEqual([]);
    expect(toggleItem([], item)).toEqual([item]);
    expect(removeItem([item, twin], 'c9')).toEqual([item]);
  });

  it('clean keeps only custom 0 in the admin (spec §4)', () => {
    const own = libraryItem(MASTERPIECE, 'positive');
    const typed = customItem({ id: 'c1', label: '猫', text: 'cat' }, 'positive');
    expect(cleanAdminGroup([own, typed])).toEqual([own]);
  });
});

describe('filterPromptTree', () => {
  const tree: PromptTreeNode[] = [
    {
      id: 'c',
      key: 'c',
      name: '画质',
      kind: 'category',
      children: [
        { id: 'w1', key: 'w1', name: '杰作', kind: 'word', text: 'masterpiece' },
        { id: 'w2', key: 'w2', name: '高清', kind: 'word', text: 'highres' },
      ],
    },
  ];

  it('matches the Chinese label or the English text and keeps the category', () => {
    expect(filterPromptTree(tree, 'MASTER')[0]?.children?.map(wordOf)).toEqual([MASTERPIECE]);
    expect(filterPromptTree(tree, '高清')[0]?.children).toHaveLength(1);
    expect(filterPromptTree(tree, '风景')).toEqual([]);
    expect(filterPromptTree(tree, '')).toBe(tree);
  });
});
