import { Converter } from 'opencc-js/t2cn';

/**
 * Text as the sensitive-word filter compares it, words and user text alike: NFKC (full-width and other
 * compatibility forms become plain letters and digits), lower case, traditional characters as simplified, and
 * without the characters people put between the letters of a word to slip it through (spaces, punctuation,
 * symbols and emoji, invisible and control characters, combining marks).
 */
export type NormalizedText = {
  text: string;
  /** Offsets in `text` where something was dropped just before: a word of Latin letters may begin or end there. */
  breaks: ReadonlySet<number>;
};

const DROPPED = /[\p{White_Space}\p{P}\p{S}\p{C}\p{M}]/u;
/** Latin letters and digits: a word made of them matches only as a whole word (see `standsAlone`). */
const WORD_CHAR = /[\p{Script=Latin}\p{Nd}]/u;
/** Below the CJK radicals no character has a traditional form: the converter is skipped for them. */
const FIRST_CJK = 0x2e80;

/**
 * Taiwan's variants and traditional characters to mainland simplified, one character at a time: word and text
 * must fold the same way whatever surrounds them, which a phrase-aware conversion would not promise (乾隆 vs 乾).
 */
const toSimplified = Converter({ from: 'tw', to: 'cn' });

export function normalizeText(input: string): NormalizedText {
  let text = '';
  const breaks = new Set<number>();
  let dropped = false;
  for (const char of input.normalize('NFKC').toLowerCase()) {
    if (DROPPED.test(char)) {
      dropped = true;
      continue;
    }
    if (dropped) {
      breaks.add(text.length);
      dropped = false;
    }
    text += char.codePointAt(0)! < FIRST_CJK ? char : toSimplified(char);
  }
  return { text, breaks };
}

/** A word of the list as stored and matched: empty when it holds no letter, digit or character. */
export const normalizeWord = (word: string): string => normalizeText(word).text;

const isWordChar = (text: string, at: number): boolean => WORD_CHAR.test(String.fromCodePoint(text.codePointAt(at)!));

/**
 * Whether a hit at [start, end) of the normalised text counts. An edge of the word that is a Latin letter or digit
 * must meet the text's start or end, a dropped character, or a character that is neither: "ass" is not found in
 * "classic", but "f u c k" and "ｆｕｃｋ" are "fuck". Chinese has no spaces between words, so a Chinese edge needs
 * nothing.
 */
export function standsAlone(normalized: NormalizedText, start: number, end: number): boolean {
  const { text, breaks } = normalized;
  const openStart = !isWordChar(text, start) || start === 0 || breaks.has(start) || !isWordChar(text, start - 1);
  const openEnd = !isWordChar(text, end - 1) || end === text.length || breaks.has(end) || !isWordChar(text, end);
  return openStart && openEnd;
}
