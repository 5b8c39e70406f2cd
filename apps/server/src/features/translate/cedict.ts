import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One CC-CEDICT entry of a simplified word: tone-numbered pinyin and its English senses in dictionary order. */
export type CedictEntry = { pinyin: string; senses: string[] };

/** An English rendering of a word; `verb` when the chosen sense was "to …" (the "to" is dropped). */
export type Gloss = { text: string; verb: boolean };

/** Row of cc-cedict's data/all.js: traditional, simplified, pinyin, sense or senses, variant and classifier refs. */
type RawEntry = [string, string, string, string | string[], unknown, unknown];

/**
 * CC-CEDICT (CC BY-SA 4.0, https://cc-cedict.org/) as shipped in the cc-cedict package.
 * The package's own loader builds typed indexes of all three of its data files (about 6 s and 400 MB of
 * heap); this reads the entry list once (about 0.4 s, 40 MB) and keeps a word → entries map.
 */
export class Cedict {
  private readonly glosses = new Map<string, Gloss | null>();

  private constructor(private readonly words: Map<string, CedictEntry[]>) {}

  private static instance: Cedict | null = null;

  /** The process-wide copy, loaded on first use. */
  static shared(): Cedict {
    Cedict.instance ??= Cedict.load();
    return Cedict.instance;
  }

  static load(): Cedict {
    const file = fileURLToPath(new URL('../data/all.js', import.meta.resolve('cc-cedict')));
    const source = readFileSync(file, 'utf8');
    const start = source.indexOf('{');
    const data = JSON.parse(source.slice(start, source.lastIndexOf('}') + 1)) as { all?: RawEntry[] };
    if (!Array.isArray(data.all)) throw new Error(`unexpected CC-CEDICT data layout in ${file}`);
    const words = new Map<string, CedictEntry[]>();
    const add = (word: string, entry: CedictEntry) => {
      const list = words.get(word);
      if (list) list.push(entry);
      else words.set(word, [entry]);
    };
    const traditionalOnly: [string, CedictEntry][] = [];
    for (const [traditional, simplified, pinyin, meanings] of data.all) {
      const entry = { pinyin, senses: typeof meanings === 'string' ? [meanings] : meanings };
      add(simplified, entry);
      if (traditional !== simplified) traditionalOnly.push([traditional, entry]);
    }
    // Traditional forms only where they are not also a simplified word, so simplified input always wins.
    for (const [traditional, entry] of traditionalOnly) if (!words.has(traditional)) add(traditional, entry);
    return new Cedict(words);
  }

  entries(word: string): CedictEntry[] | undefined {
    return this.words.get(word);
  }

  has(word: string): boolean {
    return this.words.has(word);
  }

  gloss(word: string, prefer?: 'verb' | 'noun'): Gloss | null {
    const key = `${word}\t${prefer ?? ''}`;
    let gloss = this.glosses.get(key);
    if (gloss === undefined) {
      const entries = this.words.get(word);
      gloss = entries ? pickGloss(entries, prefer) : null;
      // Prompts repeat the same few thousand words; the memo stays small.
      if (this.glosses.size < 50_000) this.glosses.set(key, gloss);
    }
    return gloss;
  }

  /** Toneless pinyin of the word's first entry, e.g. 玥 → "yue"; null when the word is not listed. */
  pinyin(word: string): string | null {
    const entry = this.words.get(word)?.[0];
    return entry ? tonelessPinyin(entry.pinyin) : null;
  }
}

export const tonelessPinyin = (pinyin: string) =>
  pinyin.toLowerCase().replace(/u:/g, 'v').replace(/[1-5]/g, '').split(/\s+/).join('');

/** Senses that are cross-references, names or regional readings, not meanings: never a prompt word. */
const SKIP_SENSE = [
  /\bsurname\b/i,
  /\bvariant of\b/i,
  /\bused in (?:names|transliteration)/i,
  /^(?:old|archaic|ancient|former)\s+(?:name|term|form|spelling|word|variant|usage)\b/i,
  /^(?:also (?:written|pr\.|called|known as|see)|abbr\.|see\b|same as|used in|cl:|classifier\b|kangxi|radical\b)/i,
  /^\((?:tw|old|archaic|dialect|cantonese|classical|fig\.|onom\.|onomatopoeia|name|pr\.)\)/i,
];
/** Capitalised senses in a common word's entry that name a business or work (山水: "Sansui, Japanese company"). */
const BRAND =
  /\b(?:company|brand|corporation|band|film|movie|novel|TV|series|magazine|newspaper|software|manufacturer|airline|bank|game|trademark|Inc)\b/i;
const isCrossReference = (sense: string | undefined) => sense !== undefined && SKIP_SENSE.some((re) => re.test(sense));

function cleanSense(sense: string): string {
  let text = sense;
  // Parentheticals (nested ones too), pinyin references and their bracketed readings.
  for (let prev = ''; prev !== text; ) {
    prev = text;
    text = text.replace(/\([^()]*\)/g, ' ');
  }
  text = text.replace(/\[[^\]]*\]/g, ' ');
  const first = text
    .split(/[;,]/)
    .map((s) => s.trim())
    .find(Boolean);
  return (first ?? '')
    .replace(/\s+/g, ' ')
    .replace(/^(?:the|a|an)\s+/i, '')
    .replace(/\s*(?:etc|\.\.\.|…)\.?$/i, '')
    .trim();
}

/**
 * The sense an image prompt wants: the first real meaning (common-word entries before proper names),
 * short (a few words), with parentheses, articles and cross-references gone; "to …" marks a verb.
 */
export function pickGloss(entries: CedictEntry[], prefer?: 'verb' | 'noun'): Gloss | null {
  const common = entries.filter((e) => e.pinyin[0] === e.pinyin[0]?.toLowerCase());
  // Readings that open with a cross-reference are variants (鸟 diao3 "variant of 屌" before niao3 "bird").
  const main = common.filter((e) => !isCrossReference(e.senses[0]?.trim()));
  const ordered = [...main, ...common.filter((e) => !main.includes(e)), ...entries.filter((e) => !common.includes(e))];
  const candidates: Gloss[] = [];
  for (const entry of ordered) {
    const properNoun = !common.includes(entry);
    for (const sense of entry.senses) {
      if (SKIP_SENSE.some((re) => re.test(sense.trim()))) continue;
      if (!properNoun && /^[A-Z]/.test(sense.trim()) && BRAND.test(sense)) continue;
      const text = cleanSense(sense);
      if (!text || /[\p{Script=Han}|]/u.test(text) || text.length > 40) continue;
      // A long proper name (大雪 "Daxue or Great Snow", a solar term) is not what a prompt means.
      if (properNoun && text.split(' ').length > 3) continue;
      const toBe = /^to be\s+(.+)$/i.exec(text);
      if (toBe?.[1]) candidates.push({ text: toBe[1], verb: false });
      else if (/^to\s+\S/i.test(text)) candidates.push({ text: text.replace(/^to\s+/i, ''), verb: true });
      else candidates.push({ text, verb: false });
    }
    if (candidates.length >= 8) break;
  }
  if (candidates.length === 0) return null;
  const firstFew = candidates.slice(0, 6);
  const wanted = prefer ? firstFew.find((c) => c.verb === (prefer === 'verb')) : undefined;
  const choice = wanted ?? candidates[0]!;
  // A long first sense loses to a short one close behind it.
  if (choice.text.split(' ').length > 3) {
    const shorter = firstFew.find((c) => c.verb === choice.verb && c.text.split(' ').length <= 3);
    if (shorter) return shorter;
  }
  return choice;
}
