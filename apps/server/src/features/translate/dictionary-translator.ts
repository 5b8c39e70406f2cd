import { Jieba } from '@node-rs/jieba';
import { dict } from '@node-rs/jieba/dict.js';
import { Cedict } from './cedict.js';
import { gerund, numberWord, parseChineseNumber, pluralize } from './english.js';
import {
  AT,
  CLASSIFIERS,
  CONJUNCTIONS,
  DE,
  FEATURES,
  GLOSSARY,
  GROUPS,
  LOCALIZERS,
  PARTICLES,
  POSSESSIVES,
  PREPOSITIONS,
  WHEN,
} from './glossary.js';
import type { PromptLibrary } from './prompt-library.js';
import type { Translator } from './translator.js';

/** jieba's dictionary and CC-CEDICT load on first use (about half a second), once per process. */
let segmenter: Jieba | null = null;
const jieba = () => {
  segmenter ??= Jieba.withDict(dict);
  return segmenter;
};
const lexicon = () => Cedict.shared();

/** `verbatim`: English words, numbers and other non-Chinese characters (emoji, other scripts) pass through. */
type Token = { zh: string; library?: string; verbatim?: boolean; preferVerb?: boolean };

/** `when`: a time that follows what it describes ("at night"); `quantity`: a number with its measure word. */
type Chunk =
  | {
      kind: 'noun' | 'verb' | 'pp';
      en: string;
      fixed?: boolean;
      plural?: boolean;
      phrase?: boolean;
      when?: string;
      quantity?: boolean;
    }
  | { kind: 'num'; n: number; unit: string; digits?: boolean }
  | { kind: 'de' }
  | { kind: 'and'; en: string }
  | { kind: 'at'; prep?: string }
  | { kind: 'loc'; prep: string };

const HAN = /\p{Script=Han}/u;
/** Characters other than Chinese, spaces and punctuation that a prompt keeps as typed: emoji, symbols, other scripts. */
const KEPT = /[\p{L}\p{N}\p{So}\p{Extended_Pictographic}]/u;
/** User-perceived characters, so an emoji sequence or a character beyond U+FFFF is never cut in two. */
const graphemes = new Intl.Segmenter('zh', { granularity: 'grapheme' });
const GLOSSARY_MAX_LENGTH = Math.max(...Object.keys(GLOSSARY).map((w) => w.length));
const PREPOSITION = /^(?:in|on|at|by|under|over|above|below|inside|outside|behind|beside|among|through|along)\s/i;
const ASCII_WORD = /^[A-Za-z0-9][A-Za-z0-9.'_+-]*/;
const NUMBER = /^([零〇一二两三四五六七八九十百千万]+|\d+)(.?)$/u;
/** A count and its measure word at the start of a word jieba kept whole (一条龙 "lit. one dragon" → 一条 + 龙). */
const COUNT_PREFIX =
  /^(?:[一二两三四五六七八九十]|\d+)[个只位名条朵棵株张把座片头匹件本辆栋道颗支枝根块幅盏艘杯双对群束串堆碗盘瓶]/u;
/** English words ending in -ing that are things, not actions. */
const NOUN_ING = new Set([
  'lighting',
  'morning',
  'evening',
  'painting',
  'building',
  'ceiling',
  'clothing',
  'king',
  'ring',
  'string',
  'wing',
  'spring',
  'thing',
  'wedding',
  'pudding',
  'sibling',
  'drawing',
  'swing',
  'ping',
]);

/** Library texts and glosses that describe an action ("holding umbrella", "standing") act as verbs. */
function kindOf(english: string): 'noun' | 'verb' {
  const first = english.split(/\s+/)[0]?.toLowerCase() ?? '';
  return first.length > 4 && first.endsWith('ing') && !NOUN_ING.has(first) ? 'verb' : 'noun';
}

const isNounLike = (c: Chunk | undefined) => c?.kind === 'noun';

/**
 * Offline Chinese → English for prompt words: the product's prompt library first (longest label wins),
 * then jieba segmentation and a CC-CEDICT gloss per word, with the few grammar rules prompts need:
 * "A 的 B" → "A B" or "B A…" for clauses, "X 下" → "under X", numbers and measure words, particles dropped.
 */
export class DictionaryTranslator implements Translator {
  readonly name = 'dictionary';

  constructor(private readonly library: () => Promise<PromptLibrary>) {}

  async translate(segments: string[]): Promise<string[]> {
    const library = await this.library();
    return segments.map((s) => translatePhrase(s, library));
  }
}

/** One prompt phrase (no commas or brackets inside); English words in it pass through. */
export function translatePhrase(phrase: string, library: PromptLibrary): string {
  const text = phrase.trim();
  const whole = library.get(text);
  if (whole !== undefined) return whole;
  if (!HAN.test(text)) return text;
  const chunks = resolve(tokenize(text, library).flatMap((t, i, all) => toChunks(t, all[i + 1])));
  return render(chunks);
}

/** Library labels by longest match, English runs kept whole, the Chinese between them cut by jieba. */
function tokenize(text: string, library: PromptLibrary): Token[] {
  const tokens: Token[] = [];
  let pending = '';
  const flush = () => {
    if (pending) for (const word of jieba().cut(pending, false)) tokens.push(...splitWord(word, library));
    pending = '';
  };
  const characters = graphemes.segment(text);
  let i = 0;
  outer: while (i < text.length) {
    for (let len = Math.min(library.maxLabelLength, text.length - i); len >= 2; len--) {
      const label = text.slice(i, i + len);
      const english = library.get(label);
      if (english !== undefined) {
        flush();
        tokens.push({ zh: label, library: english });
        i += len;
        continue outer;
      }
    }
    // Built-in prompt words jieba would cut apart (橘猫 → 橘 + 猫); the admins' labels above come first.
    for (let len = Math.min(GLOSSARY_MAX_LENGTH, text.length - i); len >= 2; len--) {
      const word = text.slice(i, i + len);
      if (word in GLOSSARY) {
        flush();
        tokens.push({ zh: word });
        i += len;
        continue outer;
      }
    }
    const ascii = ASCII_WORD.exec(text.slice(i))?.[0];
    const character = characters.containing(i)!.segment;
    if (ascii) {
      flush();
      tokens.push({ zh: ascii, verbatim: true });
      i += ascii.length;
    } else if (/\s/.test(character)) {
      flush();
      i += character.length;
    } else if (!HAN.test(character) && KEPT.test(character)) {
      flush();
      tokens.push({ zh: character, verbatim: true });
      i += character.length;
    } else {
      pending += character;
      i += character.length;
    }
  }
  flush();
  return tokens;
}

const known = (word: string, library: PromptLibrary) =>
  library.get(word) !== undefined ||
  word in GLOSSARY ||
  word in LOCALIZERS ||
  word in CONJUNCTIONS ||
  word in CLASSIFIERS ||
  PARTICLES.has(word) ||
  AT.has(word) ||
  DE.has(word) ||
  numberOf(word) !== null ||
  lexicon().gloss(word) !== null;

/** 三只 → 3 with no unit, 一群 → 1 "group of"; null when the word is not a count. */
function numberOf(word: string): { n: number; unit: string } | null {
  const match = NUMBER.exec(word);
  if (!match) return null;
  const n = parseChineseNumber(match[1]!);
  const unit = match[2] ?? '';
  if (n === null || (unit !== '' && !(unit in CLASSIFIERS))) return null;
  return { n, unit: CLASSIFIERS[unit] ?? '' };
}

/** A jieba word CC-CEDICT does not list is split into the longest words it does, then characters. */
function splitWord(word: string, library: PromptLibrary): Token[] {
  if (!HAN.test(word)) return [];
  const libraryText = library.get(word);
  if (libraryText !== undefined) return [{ zh: word, library: libraryText }];
  const last = word.slice(-1);
  // "穿着" / "坐在": the verb, then the particle (CC-CEDICT lists 穿着 as the noun "attire").
  if (word.length > 1 && (last === '着' || last === '在')) {
    const stem = word.slice(0, -1);
    const glossVerb = GLOSSARY[stem];
    if ((glossVerb && typeof glossVerb !== 'string') || (last === '在' && !lexicon().has(word))) {
      return [...splitWord(stem, library).map((t) => ({ ...t, preferVerb: true })), { zh: last }];
    }
  }
  const count = COUNT_PREFIX.exec(word)?.[0];
  if (count && count.length < word.length && known(word.slice(count.length), library)) {
    return [{ zh: count }, ...splitWord(word.slice(count.length), library)];
  }
  if (known(word, library)) return [{ zh: word }];
  // 窗台上: the noun, then the localizer (not 窗 + 台上 "on stage").
  for (const loc of [word.slice(-2), word.slice(-1)]) {
    const stem = word.slice(0, -loc.length);
    if (stem && loc in LOCALIZERS && known(stem, library)) return [...splitWord(stem, library), { zh: loc }];
  }
  // From the end (reverse maximum matching): Chinese compounds put the head last, 小女孩 → 小 + 女孩.
  // By code points: a character beyond U+FFFF (𠜎) is two UTF-16 units that must stay together.
  const characters = [...word];
  const tokens: Token[] = [];
  let end = characters.length;
  while (end > 0) {
    let len = Math.min(end, 8);
    while (len > 1 && !known(characters.slice(end - len, end).join(''), library)) len--;
    const piece = characters.slice(end - len, end).join('');
    tokens.unshift(...(len > 1 ? splitWord(piece, library) : [{ zh: piece }]));
    end -= len;
  }
  return tokens;
}

function toChunks(token: Token, next: Token | undefined): Chunk[] {
  const { zh } = token;
  if (token.library !== undefined) {
    // Library texts stay as written, except that a one-word noun still takes a count's plural (三只猫 → three cats).
    const fixed = !/^[a-z]+$/.test(token.library);
    return [{ kind: kindOf(token.library), en: token.library, fixed }];
  }
  if (token.verbatim) {
    const n = parseChineseNumber(zh);
    return [n === null ? { kind: 'noun', en: zh, fixed: true } : { kind: 'num', n, unit: '', digits: true }];
  }
  if (DE.has(zh)) return [{ kind: 'de' }];
  // 我的猫 → my cat.
  if (next && DE.has(next.zh) && zh in POSSESSIVES) return [{ kind: 'noun', en: POSSESSIVES[zh]! }];
  if (zh in CONJUNCTIONS) return [{ kind: 'and', en: CONJUNCTIONS[zh]! }];
  if (AT.has(zh)) return [{ kind: 'at' }];
  if (zh in PREPOSITIONS) return [{ kind: 'at', prep: PREPOSITIONS[zh]! }];
  if (zh in LOCALIZERS) return [{ kind: 'loc', prep: LOCALIZERS[zh]! }];
  if (zh in CLASSIFIERS) return [{ kind: 'num', n: Number.NaN, unit: CLASSIFIERS[zh]! }];
  // 地 before a localizer is the ground (坐在地上), otherwise the adverb particle.
  if (zh === '地' && next && next.zh in LOCALIZERS) return [{ kind: 'noun', en: 'ground' }];
  if (PARTICLES.has(zh)) return [];
  const count = numberOf(zh);
  if (count) return [{ kind: 'num', ...count }];
  const glossed = GLOSSARY[zh];
  const when = WHEN[zh];
  if (typeof glossed === 'string') {
    return [{ kind: PREPOSITION.test(glossed) ? 'pp' : 'noun', en: glossed, ...(when ? { when } : {}) }];
  }
  if (glossed) return [{ kind: 'verb', en: gerund(glossed.verb) }];
  const preferVerb = token.preferVerb || (next !== undefined && (PARTICLES.has(next.zh) || AT.has(next.zh)));
  const gloss = lexicon().gloss(zh, preferVerb ? 'verb' : undefined);
  if (gloss?.verb) return [{ kind: 'verb', en: gerund(gloss.text) }];
  // 空中 "in the sky" is already a place phrase: a 在 before it adds nothing.
  if (gloss) return [{ kind: PREPOSITION.test(gloss.text) ? 'pp' : 'noun', en: gloss.text, ...(when ? { when } : {}) }];
  // No usable sense: pinyin keeps the word pronounceable; an unknown character stays as it is.
  return [{ kind: 'noun', en: lexicon().pinyin(zh) ?? zh, fixed: true }];
}

/** Applies the grammar rules; returns chunks of kinds noun, verb, pp and and. */
function resolve(input: Chunk[]): Chunk[] {
  const chunks = mergeNumbers(input);

  // "X 下" → "under X", taking the nouns just before the localizer; a 在 before them is dropped.
  for (let i = 0; i < chunks.length; i++) {
    const loc = chunks[i]!;
    if (loc.kind !== 'loc') continue;
    let start = i;
    while (start > 0 && isNounLike(chunks[start - 1])) start--;
    if (start === i) {
      chunks.splice(i, 1);
      i--;
      continue;
    }
    const object = chunks.slice(start, i).map(text).join(' ');
    const dropAt = start > 0 && chunks[start - 1]?.kind === 'at' ? 1 : 0;
    chunks.splice(start - dropAt, i - start + 1 + dropAt, { kind: 'pp', en: `${loc.prep} ${object}` });
    i = start - dropAt;
  }

  // A 在 left over: "在城市" → "in city"; before a verb (在读书) it only marks the progressive.
  for (let i = 0; i < chunks.length; i++) {
    if (chunks[i]!.kind !== 'at') continue;
    let end = i + 1;
    while (isNounLike(chunks[end])) end++;
    if (end > i + 1) {
      const object = chunks
        .slice(i + 1, end)
        .map(text)
        .join(' ');
      const at = chunks[i] as { prep?: string };
      chunks.splice(i, end - i, { kind: 'pp', en: `${at.prep ?? 'in'} ${object}` });
    } else {
      chunks.splice(i, 1);
      i--;
    }
  }

  // "A 的 B": adjectives and nouns stay in front (红色的花 → red flower); a clause or place follows
  // the noun (穿着红裙的少女 → girl wearing red dress, 夕阳下的城市 → city under sunset).
  for (let i = 0; i < chunks.length; i++) {
    if (chunks[i]!.kind !== 'de') continue;
    let end = i + 1;
    while (isNounLike(chunks[end])) end++;
    let start = i;
    // A count belongs to the whole phrase: 一只戴围巾的柴犬 → "a" + "shiba inu wearing scarf".
    while (start > 0 && chunks[start - 1]!.kind !== 'and' && !isQuantity(chunks[start - 1])) start--;
    const clause = chunks.slice(start, i);
    // A clause opening with a noun and a verb (女孩穿着红色的裙子) is that noun's sentence: only what
    // follows its last verb modifies the head.
    const lastVerb = clause.map((c) => c.kind).lastIndexOf('verb');
    const opensWithNoun = clause[0]?.kind === 'noun';
    if (opensWithNoun && lastVerb >= 0) start += lastVerb + 1;
    const single = chunks[start];
    // 夜晚的城市 → "city at night".
    const modifier: Chunk[] =
      i - start === 1 && single?.kind === 'noun' && single.when
        ? [{ kind: 'pp', en: single.when }]
        : chunks.slice(start, i);
    const head = chunks.slice(i + 1, end);
    if (head.length === 0 || modifier.length === 0) {
      chunks.splice(i, 1);
      i--;
      continue;
    }
    const hasVerb = modifier.some((c) => c.kind === 'verb');
    // A verb with its object (看书 "read a book") follows; a bare one ("flying bird") leads.
    const verbPhrase =
      hasVerb && (modifier.length > 1 || modifier.some((c) => c.kind === 'verb' && c.en.includes(' ')));
    const lastModifier = modifier[modifier.length - 1];
    // 长头发的女孩 → "girl with long hair".
    const feature = !hasVerb && lastModifier?.kind === 'noun' && FEATURES.has(lastWord(lastModifier.en));
    if (feature) modifier.unshift({ kind: 'pp', en: 'with' });
    const after = modifier.some((c) => c.kind === 'pp') || verbPhrase;
    // 在海边奔跑的女孩 → girl running on the beach: the place goes after the action.
    const lead = modifier.findIndex((c) => c.kind !== 'pp');
    const ordered = lead > 0 && hasVerb ? [...modifier.slice(lead), ...modifier.slice(0, lead)] : modifier;
    const en = (after ? [...head, ...ordered] : [...ordered, ...head]).map(text).join(' ');
    chunks.splice(start, end - start, { kind: 'noun', en, phrase: true });
    i = start;
  }
  return placesAfterActions(featuresAfter(chunks));
}

const lastWord = (en: string) => en.split(/\s+/).pop()?.toLowerCase() ?? '';
const isQuantity = (c: Chunk | undefined) => c?.kind === 'noun' && c.quantity === true;

/** 长发少女 → "girl with long hair": a feature noun right before the noun that has it. */
function featuresAfter(chunks: Chunk[]): Chunk[] {
  for (let i = 0; i + 1 < chunks.length; i++) {
    const feature = chunks[i]!;
    const owner = chunks[i + 1]!;
    if (feature.kind !== 'noun' || owner.kind !== 'noun' || isQuantity(feature) || feature.phrase) continue;
    if (!FEATURES.has(lastWord(feature.en)) || FEATURES.has(lastWord(owner.en))) continue;
    chunks.splice(i, 2, { kind: 'noun', en: `${text(owner)} with ${text(feature)}`, phrase: true });
  }
  return chunks;
}

/**
 * 女孩在雨中撑着伞 → "girl holding umbrella in the rain": a place between the subject and its action goes after
 * the action and its object, where English puts it.
 */
function placesAfterActions(chunks: Chunk[]): Chunk[] {
  for (let i = 1; i + 1 < chunks.length; i++) {
    const place = chunks[i]!;
    if (place.kind !== 'pp' || chunks[i - 1]!.kind !== 'noun' || chunks[i + 1]!.kind !== 'verb') continue;
    let end = i + 2;
    while (isNounLike(chunks[end])) end++;
    chunks.splice(i, 1);
    chunks.splice(end - 1, 0, place);
    i = end - 1;
  }
  return chunks;
}

/** Numbers with their measure words; the noun they count becomes plural. */
function mergeNumbers(input: Chunk[]): Chunk[] {
  const chunks: Chunk[] = [];
  for (const chunk of input) {
    const prev = chunks[chunks.length - 1];
    if (chunk.kind === 'num' && Number.isNaN(chunk.n)) {
      // A measure word after a number joins it; alone (一把伞 is cut 一/把伞 rarely) it says nothing.
      if (prev?.kind === 'num' && !prev.unit) prev.unit = chunk.unit;
      continue;
    }
    chunks.push(chunk);
  }
  const out: Chunk[] = [];
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i]!;
    if (chunk.kind !== 'num') {
      out.push(chunk);
      continue;
    }
    const { n, unit, digits } = chunk;
    const counted = chunks[countedNoun(chunks, i)];
    if ((n > 1 || GROUPS.has(unit)) && counted?.kind === 'noun' && !counted.fixed) counted.plural = true;
    const next = chunks[i + 1];
    const noun = unit.replace(/ of$/, '');
    const article = /^[aeiou]/i.test(noun || (next && 'en' in next ? next.en : '')) ? 'an' : 'a';
    const amount = digits ? String(n) : n === 1 ? article : numberWord(n);
    out.push({ kind: 'noun', en: noun ? `${amount} ${n > 1 ? pluralize(noun) : noun} of` : amount, quantity: true });
  }
  return out;
}

/** The noun a number counts: the nouns right after it, or the head after a following 的 (三只白色的猫, 一群飞翔的鸟). */
function countedNoun(chunks: Chunk[], numberAt: number): number {
  let end = numberAt + 1;
  while (isNounLike(chunks[end])) end++;
  let de = end;
  if (end === numberAt + 1) while (chunks[de]?.kind === 'verb' || isNounLike(chunks[de])) de++;
  if (chunks[de]?.kind !== 'de') return end - 1;
  let head = de + 1;
  while (isNounLike(chunks[head + 1])) head++;
  return head;
}

function text(chunk: Chunk): string {
  if (chunk.kind === 'noun' || chunk.kind === 'verb' || chunk.kind === 'pp')
    return chunk.kind === 'noun' && chunk.plural ? pluralize(chunk.en) : chunk.en;
  if (chunk.kind === 'and') return chunk.en;
  return '';
}

function render(chunks: Chunk[]): string {
  const words: string[] = [];
  chunks.forEach((chunk, i) => {
    // "and" only between two words.
    if (chunk.kind === 'and' && (words.length === 0 || i === chunks.length - 1 || chunks[i + 1]?.kind === 'and'))
      return;
    const t = text(chunk);
    if (t) words.push(t);
  });
  return words.join(' ').replace(/\s+/g, ' ').trim();
}
