import { describe, expect, it } from 'vitest';
import { hasHan, joinPrompt, type OutputPiece, splitPrompt } from '../../../src/features/translate/prompt-syntax.js';

const texts = (input: string) => splitPrompt(input).filter((p) => p.kind === 'text' && hasHan(p.text));
/** Replaces each Chinese piece by "<piece>" uppercased stand-in, as a translator would. */
const roundTrip = (input: string, map: Record<string, string>) =>
  joinPrompt(
    splitPrompt(input).map((p): OutputPiece => {
      const key = p.text.trim();
      return p.kind === 'text' && map[key] ? { ...p, text: map[key], translated: true } : p;
    }),
  );

describe('prompt syntax: only the Chinese words between syntax are translated', () => {
  it('splits weights, brackets and commas from the words', () => {
    expect(splitPrompt('水墨山水，(月亮:1.2), masterpiece')).toEqual([
      { kind: 'text', text: '水墨山水' },
      { kind: 'syntax', text: ',' },
      { kind: 'syntax', text: '(' },
      { kind: 'text', text: '月亮' },
      { kind: 'syntax', text: ':' },
      { kind: 'text', text: '1.2' },
      { kind: 'syntax', text: ')' },
      { kind: 'syntax', text: ',' },
      { kind: 'text', text: ' masterpiece' },
    ]);
  });

  it('keeps <lora:…> blocks whole, Chinese names included, and escaped brackets as syntax', () => {
    const pieces = splitPrompt('<lora:国风:0.8> 猫, \\(笑\\), [a|b]');
    expect(pieces[0]).toEqual({ kind: 'syntax', text: '<lora:国风:0.8>' });
    expect(pieces.filter((p) => p.kind === 'syntax').map((p) => p.text)).toEqual([
      '<lora:国风:0.8>',
      ',',
      '\\(',
      '\\)',
      ',',
      '[',
      '|',
      ']',
    ]);
    expect(texts('<lora:国风:0.8> 猫, \\(笑\\)').map((p) => p.text.trim())).toEqual(['猫', '笑']);
  });

  it('reads full-width punctuation as the ASCII syntax it stands for', () => {
    expect(texts('（花朵：1.3）【蝴蝶】、月亮；星星。').map((p) => p.text)).toEqual(['花朵', '蝴蝶', '月亮', '星星']);
    expect(roundTrip('（花朵：1.3）、【蝴蝶】', { 花朵: 'flowers', 蝴蝶: 'butterfly' })).toBe(
      '(flowers:1.3), [butterfly]',
    );
  });

  it('a stray < is text, not syntax', () => {
    expect(splitPrompt('a < b')).toEqual([{ kind: 'text', text: 'a < b' }]);
  });

  it('joins with ", " after every comma and keeps the rest as typed', () => {
    expect(roundTrip('a girl,masterpiece ,  best quality', {})).toBe('a girl, masterpiece, best quality');
    expect(roundTrip('(masterpiece:1.2),[blue sky]', {})).toBe('(masterpiece:1.2), [blue sky]');
    expect(roundTrip('水墨山水，(月亮:1.2), masterpiece', { 水墨山水: 'ink wash landscape', 月亮: 'moon' })).toBe(
      'ink wash landscape, (moon:1.2), masterpiece',
    );
  });

  it('puts a space where a translated word would touch a word or a bracket', () => {
    expect(roundTrip('穿着(红色:1.2)连衣裙', { 穿着: 'wearing', 红色: 'red', 连衣裙: 'dress' })).toBe(
      'wearing (red:1.2) dress',
    );
    expect(roundTrip('masterpiece猫', { masterpiece猫: 'masterpiece cat' })).toBe('masterpiece cat');
    // Untranslated neighbours stay exactly as typed.
    expect(roundTrip('(a)(b)', {})).toBe('(a)(b)');
  });
});
