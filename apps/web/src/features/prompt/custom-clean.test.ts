import type { PromptGroupItem } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { customWords, restoreCustomWords } from './custom-clean';

const word = (id: string, groupName: string, custom: '0' | '1' = '0'): PromptGroupItem => ({
  id,
  groupName,
  promptText: groupName,
  custom,
});

const before = [word('a', '杰作'), word('c1', '远山', '1'), word('b', '水墨画'), word('c2', '薄雾', '1')];

describe('清空自定义 and 撤销', () => {
  it('finds the typed words', () => {
    expect(customWords(before).map((item) => item.id)).toEqual(['c1', 'c2']);
  });

  it('puts the cleaned words back where they were', () => {
    const cleaned = before.filter((item) => item.custom !== '1');
    expect(restoreCustomWords(cleaned, before)).toEqual(before);
  });

  it('keeps what changed since: removals stay, additions follow, a word typed again is not doubled', () => {
    const since = [word('a', '杰作'), word('new', '夕阳', '1'), word('again', '远山', '1')];
    expect(restoreCustomWords(since, before).map((item) => item.id)).toEqual(['a', 'c2', 'new', 'again']);
  });
});
