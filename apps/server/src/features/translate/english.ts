/** The little English inflection prompt words need: "stand" → "standing", "cat" → "cats". */

const STRESSED_LAST = new Set([
  'emit',
  'admit',
  'commit',
  'submit',
  'permit',
  'begin',
  'forget',
  'regret',
  'occur',
  'prefer',
  'refer',
  'control',
  'patrol',
  'equip',
  'upset',
]);

/** "stand" → "standing", "look at" → "looking at", "sit" → "sitting", "smile" → "smiling", "lie" → "lying". */
export function gerund(phrase: string): string {
  const [verb = '', ...rest] = phrase.trim().split(/\s+/);
  const lower = verb.toLowerCase();
  let ing: string;
  if (lower.endsWith('ing') || !/^[a-z]+$/.test(lower)) ing = verb;
  else if (lower.endsWith('ie')) ing = `${verb.slice(0, -2)}ying`;
  else if (/[^aeioy]e$/.test(lower) && lower !== 'be') ing = `${verb.slice(0, -1)}ing`;
  // One short syllable ending consonant-vowel-consonant doubles the consonant: sit, run, swim, stop; so do
  // longer verbs stressed on that syllable (emit, begin), which spelling alone cannot tell.
  else if (/^[^aeiou]*[aeiou][^aeiouwxy]$/.test(lower) || STRESSED_LAST.has(lower)) ing = `${verb}${verb.slice(-1)}ing`;
  else ing = `${verb}ing`;
  return [ing, ...rest].join(' ');
}

const IRREGULAR_PLURAL: Record<string, string> = {
  man: 'men',
  woman: 'women',
  child: 'children',
  person: 'people',
  mouse: 'mice',
  goose: 'geese',
  foot: 'feet',
  tooth: 'teeth',
  leaf: 'leaves',
  wolf: 'wolves',
  knife: 'knives',
  life: 'lives',
  wife: 'wives',
  half: 'halves',
  shelf: 'shelves',
  thief: 'thieves',
  calf: 'calves',
};
/** Nouns an image prompt does not count. */
const UNCOUNTED = new Set([
  'fish',
  'sheep',
  'deer',
  'hair',
  'water',
  'grass',
  'rain',
  'snow',
  'fog',
  'people',
  'series',
]);

/** Plural of the last word of a noun phrase: "cat" → "cats", "red dress" → "red dresses", "child" → "children". */
export function pluralize(phrase: string): string {
  const words = phrase.trim().split(/\s+/);
  const last = words.pop() ?? '';
  const lower = last.toLowerCase();
  let plural: string;
  if (!/^[a-z-]+$/.test(lower) || UNCOUNTED.has(lower) || (lower.endsWith('s') && !lower.endsWith('ss'))) plural = last;
  else if (IRREGULAR_PLURAL[lower]) plural = IRREGULAR_PLURAL[lower];
  else if (/(?:s|x|z|ch|sh)$/.test(lower)) plural = `${last}es`;
  else if (/[^aeiou]y$/.test(lower)) plural = `${last.slice(0, -1)}ies`;
  else plural = `${last}s`;
  return [...words, plural].join(' ');
}

const DIGITS: Record<string, number> = {
  零: 0,
  〇: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
const UNITS: Record<string, number> = { 十: 10, 百: 100, 千: 1000, 万: 10000 };

/** 三 → 3, 十二 → 12, 两百 → 200, "25" → 25; null when the text is not a number. */
export function parseChineseNumber(text: string): number | null {
  if (/^\d+$/.test(text)) return Number(text);
  if (!text || ![...text].every((c) => c in DIGITS || c in UNITS)) return null;
  let total = 0;
  let digit: number | null = null;
  for (const c of text) {
    const unit = UNITS[c];
    if (unit !== undefined) {
      total += (digit ?? 1) * unit;
      digit = null;
    } else {
      digit = DIGITS[c] ?? 0;
    }
  }
  return total + (digit ?? 0);
}

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
export const numberWord = (n: number) => NUMBER_WORDS[n] ?? String(n);
