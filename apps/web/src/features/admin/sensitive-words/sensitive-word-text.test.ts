import { SENSITIVE_WORD_BATCH_MAX, SENSITIVE_WORD_MAX } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import {
  addedText,
  categoryChoices,
  categoryFilterOptions,
  decodeWordFile,
  wordsOfText,
  wordsProblem,
} from './sensitive-word-text';

describe('wordsOfText', () => {
  it('takes one word a line, trimmed, without blank lines', () => {
    expect(wordsOfText(' 虐杀 \r\n\n血腥暴力\rkick ass\n  ')).toEqual(['虐杀', '血腥暴力', 'kick ass']);
    expect(wordsOfText(undefined)).toEqual([]);
  });
});

describe('wordsProblem', () => {
  it('accepts good words', () => {
    expect(wordsProblem('虐杀\n血腥暴力')).toBeNull();
  });

  it('asks for a word when there is none', () => {
    expect(wordsProblem('  \n ')).toBe('请填写敏感词');
    expect(wordsProblem(undefined)).toBe('请填写敏感词');
  });

  it("uses the contract's message, naming the line when there are several", () => {
    const long = '词'.repeat(SENSITIVE_WORD_MAX + 1);
    expect(wordsProblem(long)).toBe(`敏感词不能超过 ${SENSITIVE_WORD_MAX} 个字`);
    expect(wordsProblem(`虐杀\n\n${long}`)).toBe(`第 3 行：敏感词不能超过 ${SENSITIVE_WORD_MAX} 个字`);
    expect(wordsProblem('虐\u200b杀')).toBe('敏感词不能包含控制字符或不可见字符');
  });

  it('refuses more words than one request takes', () => {
    const many = Array.from({ length: SENSITIVE_WORD_BATCH_MAX + 1 }, (_, index) => `词${index}`).join('\n');
    expect(wordsProblem(many)).toBe(`一次最多添加 ${SENSITIVE_WORD_BATCH_MAX} 个敏感词`);
  });
});

describe('addedText', () => {
  it('says how many were added and how many were there already', () => {
    expect(addedText('导入成功', { added: 3, skipped: 1 })).toBe('导入成功：新增 3 个，1 个已在词库中');
    expect(addedText('添加成功', { added: 2, skipped: 0 })).toBe('添加成功：新增 2 个');
  });
});

describe('category options', () => {
  const categories = [
    { category: '暴力', count: 3 },
    { category: '其他', count: 1 },
  ];

  it('labels the filter with each category’s count', () => {
    expect(categoryFilterOptions(categories)).toEqual([
      { label: '暴力（3）', value: '暴力' },
      { label: '其他（1）', value: '其他' },
    ]);
  });

  it('offers the default category first, once', () => {
    expect(categoryChoices(categories, '其他')).toEqual([{ value: '其他' }, { value: '暴力' }]);
    expect(categoryChoices([], '其他')).toEqual([{ value: '其他' }]);
  });
});

describe('decodeWordFile', () => {
  it('reads UTF-8, dropping a BOM', () => {
    const encode = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;
    expect(decodeWordFile(encode('\uFEFF暴力:虐杀\n色情'))).toBe('暴力:虐杀\n色情');
    expect(decodeWordFile(encode('暴力:虐杀'))).toBe('暴力:虐杀');
  });

  it('falls back to GB18030 for a file a Chinese Windows tool saved', () => {
    // 暴力:虐杀 in GB18030 (GBK), which is not valid UTF-8.
    const bytes = new Uint8Array([0xb1, 0xa9, 0xc1, 0xa6, 0x3a, 0xc5, 0xb0, 0xc9, 0xb1]);
    expect(decodeWordFile(bytes.buffer)).toBe('暴力:虐杀');
  });
});
