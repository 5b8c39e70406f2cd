import { readFileSync } from 'node:fs';
import { translatePhrase } from '../../src/features/translate/dictionary-translator.js';
import { PromptLibrary } from '../../src/features/translate/prompt-library.js';
import { hasHan, joinPrompt, type OutputPiece, splitPrompt } from '../../src/features/translate/prompt-syntax.js';

/** One line of the set: Chinese prompt text and the English a careful human would write for it. */
export type PromptPair = { zh: string; en: string };

export const PROMPT_SET_FILE = new URL('./prompt-set.zh-en.tsv', import.meta.url);
/** Lines written after the tuning and kept out of it. */
export const HELD_OUT_SET_FILE = new URL('./prompt-set.heldout.zh-en.tsv', import.meta.url);

export function readPromptSet(file: URL = PROMPT_SET_FILE): PromptPair[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [zh = '', en = ''] = line.split('\t');
      return { zh: zh.trim(), en: en.trim() };
    });
}

/** The dictionary alone (no admin prompt library) over the prompt syntax, as the service runs it. */
export function dictionaryTranslation(text: string, library = PromptLibrary.of([])): string {
  const pieces: OutputPiece[] = splitPrompt(text);
  for (const piece of pieces) {
    if (piece.kind !== 'text' || !hasHan(piece.text)) continue;
    piece.text = translatePhrase(piece.text, library);
    piece.translated = true;
  }
  return joinPrompt(pieces);
}

/** Words that carry no picture: articles, prepositions, conjunctions. Word order is scored by the bigrams instead. */
const FUNCTION_WORDS = new Set(
  'a an the of in on at by with and or to into onto over under from for through is are its his her their'.split(' '),
);

/** A crude stem, so "steaming"/"steam", "roses"/"rose", "glowing"/"glow" count as one word; nothing more. */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3).replace(/(.)\1$/, '$1');
  else if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(?:ch|sh|x|ss)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  return w.replace(/e$/, '');
}

/** Content words of an English prompt, stemmed, in order. */
export function contentWords(english: string): string[] {
  return (english.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => !FUNCTION_WORDS.has(w)).map(stem);
}

function f1(candidate: string[], reference: string[]): number {
  if (candidate.length === 0 && reference.length === 0) return 1;
  if (candidate.length === 0 || reference.length === 0) return 0;
  const left = new Map<string, number>();
  for (const w of reference) left.set(w, (left.get(w) ?? 0) + 1);
  let overlap = 0;
  for (const w of candidate) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      overlap += 1;
      left.set(w, n - 1);
    }
  }
  if (overlap === 0) return 0;
  const precision = overlap / candidate.length;
  const recall = overlap / reference.length;
  return (2 * precision * recall) / (precision + recall);
}

const bigrams = (words: string[]) => words.slice(1).map((w, i) => `${words[i]} ${w}`);

export type LineScore = PromptPair & { got: string; wordF1: number; orderF1: number };

/**
 * Per line: content-word F1 (do the picture's words come through: precision punishes junk like "emiting",
 * recall punishes lost words) and content-bigram F1 (do they come in English order: "steaming coffee", not
 * "coffee steaming"). A one-word reference has no bigram; its order score is its word score.
 */
export function scoreLine(pair: PromptPair, got: string): LineScore {
  const candidate = contentWords(got);
  const reference = contentWords(pair.en);
  const wordF1 = f1(candidate, reference);
  const orderF1 = reference.length < 2 ? wordF1 : f1(bigrams(candidate), bigrams(reference));
  return { ...pair, got, wordF1, orderF1 };
}

export type SetScore = { lines: LineScore[]; wordF1: number; orderF1: number; exact: number };

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

export function scoreSet(pairs: PromptPair[], translate: (zh: string) => string = dictionaryTranslation): SetScore {
  const lines = pairs.map((pair) => scoreLine(pair, translate(pair.zh)));
  return {
    lines,
    wordF1: mean(lines.map((l) => l.wordF1)),
    orderF1: mean(lines.map((l) => l.orderF1)),
    exact: mean(lines.map((l) => (contentWords(l.got).join(' ') === contentWords(l.en).join(' ') ? 1 : 0))),
  };
}
