import type { PromptGroupItem } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { appendWords, foldChips, importHistoryEntry } from './history-import';

const word = (id: string, groupName: string, promptText = groupName, custom: '0' | '1' = '0'): PromptGroupItem => ({
  id,
  groupName,
  promptText,
  custom,
});

describe('appendWords', () => {
  it('appends the missing words after the current ones, in the entry order', () => {
    const current = [word('w1', '杰作', 'masterpiece')];
    const imported = [
      word('w1', '杰作', 'masterpiece'),
      word('c1', '远山', 'distant mountains', '1'),
      word('c2', 'fog'),
    ];
    expect(appendWords(current, imported).map((item) => item.id)).toEqual(['w1', 'c1', 'c2']);
  });

  it('skips a word typed again under another id (same English or same label)', () => {
    const current = [word('c9', '远山', 'distant mountains', '1')];
    expect(appendWords(current, [word('c1', '远山', 'far mountains', '1')])).toEqual(current);
    expect(appendWords(current, [word('c2', '远方的山', 'Distant Mountains', '1')])).toEqual(current);
  });

  it('restores a cleaned group in full', () => {
    const imported = [word('a', '水墨画', 'ink wash painting', '1'), word('b', '杰作', 'masterpiece')];
    expect(appendWords([], imported)).toEqual(imported);
  });
});

describe('importHistoryEntry', () => {
  it('merges both groups', () => {
    const result = importHistoryEntry(
      { promptGroup: [word('p', '杰作')], negativePromptGroup: [] },
      { promptGroup: [word('q', '远山')], negativePromptGroup: [word('n', '模糊', 'blurry')] },
    );
    expect(result).toEqual({
      ok: true,
      groups: {
        promptGroup: [word('p', '杰作'), word('q', '远山')],
        negativePromptGroup: [word('n', '模糊', 'blurry')],
      },
    });
  });

  it('says there is nothing new when the entry holds only words already there', () => {
    const current = { promptGroup: [word('p', '杰作')], negativePromptGroup: [word('n', '模糊', 'blurry')] };
    const same = { promptGroup: [word('p2', '杰作')], negativePromptGroup: [word('n', '模糊', 'blurry')] };
    expect(importHistoryEntry(current, same)).toEqual({
      ok: false,
      reason: '没有新的提示词：这条记录的词都已在当前提示词中',
      level: 'info',
    });
  });

  it('refuses to go past the 150 words of a group', () => {
    const full = Array.from({ length: 150 }, (_, index) => word(`w${index}`, `词${index}`));
    const result = importHistoryEntry(
      { promptGroup: full, negativePromptGroup: [] },
      {
        promptGroup: [word('extra', '额外')],
        negativePromptGroup: [],
      },
    );
    expect(result).toEqual({ ok: false, reason: '提示词不能超过 150 个', level: 'warning' });
  });
});

describe('foldChips', () => {
  it('shows up to the limit and counts the rest', () => {
    expect(foldChips([1, 2, 3], 2)).toEqual({ shown: [1, 2], hidden: 1 });
    expect(foldChips([1, 2], 2)).toEqual({ shown: [1, 2], hidden: 0 });
    expect(foldChips([], 2)).toEqual({ shown: [], hidden: 0 });
  });
});
