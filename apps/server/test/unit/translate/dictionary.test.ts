import { describe, expect, it } from 'vitest';
import { Cedict, pickGloss, tonelessPinyin } from '../../../src/features/translate/cedict.js';
import { translatePhrase } from '../../../src/features/translate/dictionary-translator.js';
import { gerund, parseChineseNumber, pluralize } from '../../../src/features/translate/english.js';
import { PromptLibrary } from '../../../src/features/translate/prompt-library.js';

describe('choosing an English gloss from CC-CEDICT senses', () => {
  it('skips surnames, variants, figurative senses and brands; drops parentheses, articles and synonyms', () => {
    expect(
      pickGloss([
        { pinyin: 'Long2', senses: ['surname Long'] },
        { pinyin: 'long2', senses: ['Chinese dragon; loong', '(fig.) emperor'] },
      ]),
    ).toEqual({ text: 'Chinese dragon', verb: false });
    expect(
      pickGloss([
        { pinyin: 'shan1 shui3', senses: ['Sansui, Japanese company', 'water from a mountain', 'landscape'] },
      ]),
    ).toEqual({ text: 'landscape', verb: false });
    expect(pickGloss([{ pinyin: 'yue4 liang5', senses: ['the moon'] }])?.text).toBe('moon');
    expect(pickGloss([{ pinyin: 'ni2 hong2 deng1', senses: ['(loanword) neon lights'] }])?.text).toBe('neon lights');
    expect(pickGloss([{ pinyin: 'hong2 se4', senses: ['red (color)', 'revolutionary'] }])?.text).toBe('red');
  });

  it('puts a reading that is only a cross-reference last (鸟: diao3 "variant of 屌" before niao3 "bird")', () => {
    expect(
      pickGloss([
        { pinyin: 'diao3', senses: ['variant of 屌[diao3]', 'penis'] },
        { pinyin: 'niao3', senses: ['bird', '(dialect) to pay attention to'] },
      ])?.text,
    ).toBe('bird');
  });

  it('marks "to …" senses as verbs, reads "to be …" as an adjective, and honours a verb preference', () => {
    expect(pickGloss([{ pinyin: 'wei1 xiao4', senses: ['to smile'] }])).toEqual({ text: 'smile', verb: true });
    expect(pickGloss([{ pinyin: 'x', senses: ['to be tired'] }])).toEqual({ text: 'tired', verb: false });
    const zhan = [{ pinyin: 'zhan4', senses: ['station', 'to stand', 'to halt'] }];
    expect(pickGloss(zhan)?.text).toBe('station');
    expect(pickGloss(zhan, 'verb')).toEqual({ text: 'stand', verb: true });
  });

  it('prefers a short sense close behind a long first one', () => {
    expect(pickGloss([{ pinyin: 'x', senses: ['old man or old woman of great age', 'the elderly'] }])?.text).toBe(
      'elderly',
    );
  });

  it('writes toneless pinyin for words without a usable sense', () => {
    expect(tonelessPinyin('Zhong1 guo2')).toBe('zhongguo');
    expect(tonelessPinyin('nu:3 hai2')).toBe('nvhai');
  });
});

describe('English inflection', () => {
  it('makes -ing forms', () => {
    expect(['stand', 'sit', 'smile', 'lie', 'look at', 'run', 'read', 'see', 'open', 'swim'].map(gerund)).toEqual([
      'standing',
      'sitting',
      'smiling',
      'lying',
      'looking at',
      'running',
      'reading',
      'seeing',
      'opening',
      'swimming',
    ]);
  });

  it('makes plurals of the last word', () => {
    expect(['cat', 'red dress', 'city', 'child', 'fish', 'cats', 'leaf'].map(pluralize)).toEqual([
      'cats',
      'red dresses',
      'cities',
      'children',
      'fish',
      'cats',
      'leaves',
    ]);
  });

  it('reads Chinese numerals', () => {
    expect(['三', '十', '十二', '二十五', '两百', '一千零一', '42', '猫'].map(parseChineseNumber)).toEqual([
      3,
      10,
      12,
      25,
      200,
      1001,
      42,
      null,
    ]);
  });
});

describe('dictionary translation of one phrase (real jieba and CC-CEDICT data)', () => {
  const library = PromptLibrary.of([
    ['一个女孩', '1girl'],
    ['长发', 'long hair'],
    ['水墨山水', 'ink wash landscape'],
    ['樱花', 'cherry blossoms'],
    ['日落', 'sunset'],
  ]);

  // Reading jieba's dictionary and CC-CEDICT takes seconds on a busy machine.
  it('loads CC-CEDICT from the package data', { timeout: 60_000 }, () => {
    const cedict = Cedict.shared();
    expect(cedict.gloss('鸟')?.text).toBe('bird');
    expect(cedict.gloss('城市')?.text).toBe('city');
    expect(cedict.gloss('夕阳')?.text).toBe('sunset');
    expect(cedict.has('不存在的词语')).toBe(false);
  });

  it('uses a whole-phrase library match before segmentation, and library words inside a phrase', () => {
    expect(translatePhrase('水墨山水', library)).toBe('ink wash landscape');
    expect(translatePhrase(' 一个女孩 ', library)).toBe('1girl');
    expect(translatePhrase('长发的女孩', library)).toBe('girl with long hair');
    expect(translatePhrase('樱花树下的少女', library)).toMatch(/^girl under cherry blossoms tree$/);
  });

  it('orders modifiers the English way', () => {
    expect(translatePhrase('夕阳下的城市', library)).toBe('city under sunset');
    expect(translatePhrase('红色的花', library)).toBe('red flower');
    expect(translatePhrase('穿着红色连衣裙的少女', library)).toBe('girl wearing red dress');
    expect(translatePhrase('三只白色的猫', library)).toBe('three white cats');
    expect(translatePhrase('我的城市', library)).toBe('my city');
  });

  it('keeps English words and numbers inside a Chinese phrase', () => {
    expect(translatePhrase('穿T恤的boy', library)).toMatch(/wearing .*boy|boy .*wearing/);
    expect(translatePhrase('3个男孩', library)).toBe('3 boys');
  });

  it('keeps characters outside the Basic Multilingual Plane and emoji whole', () => {
    const cases: [string, string][] = [
      ['𠜎', '𠜎'],
      ['山𠜎水', 'mountain 𠜎 water'],
      ['猫😀', 'cat 😀'],
      ['😀猫', '😀 cat'],
      ['👩‍🎨画家', '👩‍🎨 painter'],
    ];
    for (const [chinese, english] of cases) {
      const translated = translatePhrase(chinese, library);
      // A lone surrogate is half of a character beyond U+FFFF.
      expect(translated, chinese).not.toMatch(/\p{Cs}/u);
      expect(translated, chinese).toBe(english);
    }
  });
});
