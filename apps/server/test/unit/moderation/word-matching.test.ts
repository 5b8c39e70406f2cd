import { describe, expect, it } from 'vitest';
import { normalizeText, normalizeWord, standsAlone } from '../../../src/features/moderation/normalize-text.js';
import { WordMatcher } from '../../../src/features/moderation/word-matcher.js';

describe('normalisation: the text as the sensitive-word filter compares it', () => {
  it('turns full-width and other compatibility forms into plain letters and digits, in lower case', () => {
    expect(normalizeWord('ＰＯＲＮ１２３')).toBe('porn123');
    expect(normalizeWord('𝐏𝐨𝐫𝐧')).toBe('porn');
    expect(normalizeWord('ⓟⓞⓡⓝ')).toBe('porn');
    expect(normalizeWord('ﬁne')).toBe('fine');
  });

  it('folds traditional characters and Taiwan variants to simplified, one character at a time', () => {
    expect(normalizeWord('顛覆國家政權')).toBe('颠覆国家政权');
    expect(normalizeWord('虐殺')).toBe('虐杀');
    expect(normalizeWord('裡')).toBe(normalizeWord('裏'));
    // Simplified text is left as it is.
    expect(normalizeWord('颠覆国家政权')).toBe('颠覆国家政权');
    // Character by character, whatever the neighbours: a word folds the same alone and inside a phrase.
    expect(normalizeWord('乾隆')).toBe(`${normalizeWord('乾')}隆`);
  });

  it('drops spaces, punctuation, symbols, emoji, invisible characters and combining marks', () => {
    for (const spaced of [
      '色 情',
      '色　情',
      '色，情',
      '色.情',
      '色*情',
      '色😀情',
      '色\u200b情',
      '色\u00ad情',
      '色\n情',
    ]) {
      expect(normalizeWord(spaced)).toBe('色情');
    }
    expect(normalizeWord('p̶o̶r̶n̶')).toBe('porn');
    expect(normalizeWord('!!! ...')).toBe('');
  });

  it('remembers where something was dropped, for the whole-word rule of Latin words', () => {
    const normalized = normalizeText('kick ass, classic');
    expect(normalized.text).toBe('kickassclassic');
    expect([...normalized.breaks]).toEqual([4, 7]);
  });
});

describe('matching: one Aho–Corasick automaton over normalised text', () => {
  const matcher = new WordMatcher(['色情', '虐殺', '颠覆国家政权', 'porn', 'ass', 'blow job', '8964', '  ', '！！']);

  it('finds a listed word however it is spaced, written full-width or in traditional characters', () => {
    expect(matcher.find('一张色情图片')).toBe('色情');
    expect(matcher.find('色 情')).toBe('色情');
    expect(matcher.find('色，情')).toBe('色情');
    expect(matcher.find('色\u200d情')).toBe('色情');
    expect(matcher.find('虐杀')).toBe('虐杀');
    expect(matcher.find('顛 覆 國 家 政 權')).toBe('颠覆国家政权');
    expect(matcher.find('ＰＯＲＮ')).toBe('porn');
    expect(matcher.find('p o r n')).toBe('porn');
    expect(matcher.find('Blow-Job')).toBe('blowjob');
  });

  it('matches a word of Latin letters or digits only as a whole word', () => {
    expect(matcher.find('a classic glass vase')).toBeNull();
    expect(matcher.find('pornography')).toBeNull();
    expect(matcher.find('89641')).toBeNull();
    expect(matcher.find('kick ass')).toBe('ass');
    expect(matcher.find('kick-ass')).toBe('ass');
    expect(matcher.find('Ass')).toBe('ass');
    expect(matcher.find('a s s')).toBe('ass');
    // Chinese around a Latin word is no letter of it.
    expect(matcher.find('看porn视频')).toBe('porn');
    expect(matcher.find('8964年')).toBe('8964');
  });

  it('passes clean text, and words without letters are never patterns', () => {
    expect(matcher.find('masterpiece, best quality, 1girl, 樱花树下的少女')).toBeNull();
    expect(matcher.find('')).toBeNull();
    expect(matcher.find('！！ ')).toBeNull();
    expect(new WordMatcher([]).find('色情')).toBeNull();
  });

  it('knows the edges of a hit in the normalised text', () => {
    const normalized = normalizeText('big glass');
    const at = normalized.text.indexOf('ass');
    expect(standsAlone(normalized, at, at + 3)).toBe(false);
    const spaced = normalizeText('big gl ass');
    const hit = spaced.text.indexOf('ass');
    expect(standsAlone(spaced, hit, hit + 3)).toBe(true);
  });
});
