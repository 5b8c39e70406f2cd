import { describe, expect, it } from 'vitest';
import { hasChinese } from './chinese';

describe('hasChinese', () => {
  it('finds Chinese characters anywhere in the text', () => {
    expect(hasChinese('水墨画')).toBe(true);
    expect(hasChinese('masterpiece, 远山')).toBe(true);
    expect(hasChinese('(杰作:1.2)')).toBe(true);
  });

  it('is false for English, digits and full-width punctuation alone', () => {
    expect(hasChinese('masterpiece, best quality')).toBe(false);
    expect(hasChinese('1girl 123')).toBe(false);
    expect(hasChinese('，、；（）')).toBe(false);
    expect(hasChinese('')).toBe(false);
  });
});
