/**
 * From prompt words to what the built-in engine paints: palette colours, a style and the subjects, each with a weight.
 * Chinese and English words both count; `(word:1.3)`, `(word)` and `[word]` weight them like AUTOMATIC1111;
 * negative words take their elements away.
 */

export type ColorId =
  | 'red'
  | 'orange'
  | 'yellow'
  | 'gold'
  | 'green'
  | 'cyan'
  | 'blue'
  | 'purple'
  | 'pink'
  | 'white'
  | 'black'
  | 'brown'
  | 'silver'
  | 'monochrome';
export type StyleId = 'ink' | 'oil' | 'cyberpunk' | 'pixel' | 'anime' | 'watercolor' | 'gongbi' | 'realistic';
export type SubjectId =
  | 'figure'
  | 'mountain'
  | 'sea'
  | 'city'
  | 'flower'
  | 'cat'
  | 'moon'
  | 'sun'
  | 'tree'
  | 'bird'
  | 'cloud'
  | 'star'
  | 'snow'
  | 'rain'
  | 'house'
  | 'boat'
  | 'lake'
  | 'product';
export type MoodId = 'night' | 'sunset' | 'chibi';

type Entry =
  | { kind: 'color'; id: ColorId; keys: string[] }
  | { kind: 'style'; id: StyleId; keys: string[] }
  | { kind: 'subject'; id: SubjectId; keys: string[] }
  | { kind: 'mood'; id: MoodId; keys: string[] }
  | { kind: 'filler'; id: 'filler'; keys: string[] };

const LEXICON: Entry[] = [
  {
    kind: 'color',
    id: 'monochrome',
    keys: ['黑白', '单色', 'monochrome', 'grayscale', 'greyscale', 'black and white'],
  },
  { kind: 'color', id: 'red', keys: ['红', '赤', '朱', 'red', 'crimson', 'scarlet', 'vermilion'] },
  { kind: 'color', id: 'orange', keys: ['橙', '橘', 'orange', 'amber'] },
  { kind: 'color', id: 'yellow', keys: ['黄', 'yellow'] },
  { kind: 'color', id: 'gold', keys: ['金', 'gold', 'golden'] },
  { kind: 'color', id: 'green', keys: ['绿', '翠', 'green', 'emerald', 'jade'] },
  { kind: 'color', id: 'cyan', keys: ['青', 'cyan', 'teal', 'turquoise', 'aqua'] },
  { kind: 'color', id: 'blue', keys: ['蓝', '碧', 'blue', 'azure', 'navy'] },
  { kind: 'color', id: 'purple', keys: ['紫', 'purple', 'violet', 'lavender'] },
  { kind: 'color', id: 'pink', keys: ['粉', 'pink', 'rose gold'] },
  { kind: 'color', id: 'white', keys: ['白', 'white'] },
  { kind: 'color', id: 'black', keys: ['黑', 'black'] },
  { kind: 'color', id: 'brown', keys: ['棕', '褐', '咖啡', 'brown'] },
  { kind: 'color', id: 'silver', keys: ['银', 'silver'] },
  { kind: 'style', id: 'ink', keys: ['水墨', '墨', '国画', '山水画', 'ink', 'sumi', 'chinese painting', 'shuimo'] },
  { kind: 'style', id: 'oil', keys: ['油画', 'oil painting', 'oil', 'impasto', 'van gogh'] },
  { kind: 'style', id: 'cyberpunk', keys: ['赛博朋克', '赛博', '霓虹', 'cyberpunk', 'neon', 'synthwave'] },
  { kind: 'style', id: 'pixel', keys: ['像素', 'pixel', '8-bit', '8bit', 'retro game'] },
  {
    kind: 'style',
    id: 'anime',
    keys: ['动漫', '二次元', '动画', '卡通', '漫画', 'anime', 'manga', 'cel shading', 'cel', 'cartoon', 'illustration'],
  },
  { kind: 'style', id: 'watercolor', keys: ['水彩', 'watercolor', 'watercolour', 'aquarelle'] },
  { kind: 'style', id: 'gongbi', keys: ['工笔', '重彩', 'gongbi'] },
  {
    kind: 'style',
    id: 'realistic',
    keys: ['写实', '真实', '摄影', '照片', 'realistic', 'photorealistic', 'photo', 'photography', 'raw photo', 'dslr'],
  },
  {
    kind: 'subject',
    id: 'figure',
    keys: [
      '人物',
      '人像',
      '女孩',
      '少女',
      '女生',
      '女性',
      '女人',
      '美女',
      '男孩',
      '少年',
      '男人',
      '男性',
      '仙女',
      '侠客',
      '古装',
      '汉服',
      'girl',
      '1girl',
      'boy',
      '1boy',
      'woman',
      'man',
      'person',
      'portrait',
      'lady',
      'warrior',
      'hanfu',
    ],
  },
  { kind: 'subject', id: 'mountain', keys: ['山', '峰', '岭', 'mountain', 'peak', 'hill', 'cliff'] },
  { kind: 'subject', id: 'sea', keys: ['海', '浪', '洋', 'sea', 'ocean', 'wave', 'beach', 'coast'] },
  {
    kind: 'subject',
    id: 'city',
    keys: ['城市', '都市', '城', '街', '楼', '大厦', 'city', 'skyline', 'street', 'building', 'skyscraper', 'downtown'],
  },
  {
    kind: 'subject',
    id: 'flower',
    keys: ['花', '樱', '荷', '莲', '牡丹', '梅', 'flower', 'blossom', 'rose', 'lotus', 'peony', 'sakura', 'tulip'],
  },
  { kind: 'subject', id: 'cat', keys: ['猫', '喵', 'cat', 'kitten', 'kitty'] },
  { kind: 'subject', id: 'moon', keys: ['月', 'moon', 'lunar'] },
  { kind: 'subject', id: 'sun', keys: ['太阳', '日出', '阳光', 'sun', 'sunrise', 'sunlight'] },
  { kind: 'subject', id: 'tree', keys: ['树', '林', '竹', '松', 'tree', 'forest', 'bamboo', 'pine', 'woods'] },
  { kind: 'subject', id: 'bird', keys: ['鸟', '鹤', '燕', '雁', 'bird', 'crane', 'swallow', 'eagle'] },
  { kind: 'subject', id: 'cloud', keys: ['云', '雾', 'cloud', 'mist', 'fog'] },
  { kind: 'subject', id: 'star', keys: ['星', '银河', 'star', 'galaxy', 'milky way', 'starry'] },
  { kind: 'subject', id: 'snow', keys: ['雪', '冬', 'snow', 'winter'] },
  { kind: 'subject', id: 'rain', keys: ['雨', 'rain', 'rainy', 'storm'] },
  {
    kind: 'subject',
    id: 'house',
    keys: ['房', '屋', '塔', '亭', '寺', '庙', '宫', 'house', 'pagoda', 'temple', 'palace', 'castle', 'cottage'],
  },
  { kind: 'subject', id: 'boat', keys: ['船', '舟', '帆', 'boat', 'ship', 'sail'] },
  { kind: 'subject', id: 'lake', keys: ['湖', '河', '江', '溪', '水面', 'lake', 'river', 'stream', 'pond'] },
  {
    kind: 'subject',
    id: 'product',
    keys: ['产品', '商品', '瓶', '香水', '化妆品', '电商', 'product', 'bottle', 'perfume', 'cosmetic', 'packshot'],
  },
  { kind: 'mood', id: 'night', keys: ['夜', '星空', 'night', 'midnight', 'dark sky', 'evening'] },
  { kind: 'mood', id: 'sunset', keys: ['夕阳', '日落', '黄昏', '晚霞', 'sunset', 'dusk', 'golden hour', 'twilight'] },
  { kind: 'mood', id: 'chibi', keys: ['q版', '萌', 'chibi', 'cute', 'kawaii'] },
  {
    kind: 'filler',
    id: 'filler',
    keys: [
      '杰作',
      '最佳质量',
      '高质量',
      '高清',
      '细节',
      '精致',
      '超清',
      '低质量',
      '最差质量',
      '模糊',
      '水印',
      '文字',
      '畸形',
      'masterpiece',
      'best quality',
      'high quality',
      'quality',
      'detailed',
      'ultra',
      'highres',
      'absurdres',
      '4k',
      '8k',
      'hdr',
      'sharp focus',
      'blurry',
      'watermark',
      'text',
      'bad hands',
      'lowres',
      'jpeg artifacts',
      'signature',
      'deformed',
    ],
  },
];

/** Checkpoint names of the demo models and the style each one paints in. */
const CHECKPOINT_STYLES: { key: string; style: StyleId; mood?: MoodId; subject?: SubjectId }[] = [
  { key: 'realistic', style: 'realistic' },
  { key: 'product', style: 'realistic', subject: 'product' },
  { key: 'anime', style: 'anime' },
  { key: 'chibi', style: 'anime', mood: 'chibi' },
  { key: 'ink', style: 'ink' },
  { key: 'gongbi', style: 'gongbi' },
];

export type WeightedTerm = { text: string; weight: number };

export type Scene = {
  colors: Partial<Record<ColorId, number>>;
  styles: Partial<Record<StyleId, number>>;
  subjects: Partial<Record<SubjectId, number>>;
  moods: Partial<Record<MoodId, number>>;
  /** Words the lexicon does not know: each seeds a shape of its own. */
  shapes: WeightedTerm[];
  /** The dominant style, if any. */
  style: StyleId | null;
  styleWeight: number;
};

const ATTENTION = /\\\(|\\\)|\\\[|\\]|\\\\|\\|\(|\[|:\s*([+-]?[.\d]+)\s*\)|\)|]|[^\\()[\]:]+|:/g;

/** AUTOMATIC1111's attention parsing, then split into comma-separated terms carrying their weight. */
export function parsePrompt(prompt: string): WeightedTerm[] {
  const pieces: [string, number][] = [];
  const round: number[] = [];
  const square: number[] = [];
  const multiply = (start: number, factor: number) => {
    for (let p = start; p < pieces.length; p++) pieces[p]![1] *= factor;
  };
  const text = prompt.replace(/<[^>]*>/g, ' ');
  for (const match of text.matchAll(ATTENTION)) {
    const token = match[0];
    const weight = match[1];
    if (token.startsWith('\\')) pieces.push([token.slice(1), 1]);
    else if (token === '(') round.push(pieces.length);
    else if (token === '[') square.push(pieces.length);
    else if (weight !== undefined && round.length) multiply(round.pop()!, Number(weight) || 0);
    else if (token === ')' && round.length) multiply(round.pop()!, 1.1);
    else if (token === ']' && square.length) multiply(square.pop()!, 1 / 1.1);
    else pieces.push([token, 1]);
  }
  for (const start of round) multiply(start, 1.1);
  for (const start of square) multiply(start, 1 / 1.1);
  const terms: WeightedTerm[] = [];
  for (const [piece, weight] of pieces) {
    for (const part of piece.split(/[,，、;；\n|]+/u)) {
      const term = part.trim().toLowerCase();
      if (term && term !== ':') terms.push({ text: term, weight });
    }
  }
  return terms;
}

const hasCjk = (key: string) => /[\u3400-\u9fff]/u.test(key);

function matches(term: string, key: string): boolean {
  if (hasCjk(key)) return term.includes(key);
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^a-z])${escaped}(e?s)?($|[^a-z])`).test(term);
}

type Tally = {
  color: Map<string, number>;
  style: Map<string, number>;
  subject: Map<string, number>;
  mood: Map<string, number>;
  unknown: Map<string, number>;
};

function tally(terms: WeightedTerm[]): Tally {
  const result: Tally = { color: new Map(), style: new Map(), subject: new Map(), mood: new Map(), unknown: new Map() };
  for (const term of terms) {
    let known = false;
    let rest = term.text;
    for (const entry of LEXICON) {
      const key = entry.keys.find((k) => matches(rest, k));
      if (!key) continue;
      known = true;
      // 黑白 is not also 黑 and 白: consume what matched.
      if (entry.kind === 'color') rest = rest.split(key).join(' ');
      if (entry.kind === 'filler') continue;
      const map = result[entry.kind];
      map.set(entry.id, (map.get(entry.id) ?? 0) + term.weight);
    }
    if (!known) result.unknown.set(term.text, (result.unknown.get(term.text) ?? 0) + term.weight);
  }
  return result;
}

function subtract(positive: Map<string, number>, negative: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [id, weight] of positive) {
    const left = weight - (negative.get(id) ?? 0);
    if (left > 0.05) out[id] = Math.min(2.5, left);
  }
  return out;
}

/** What to paint for a prompt, a negative prompt and a checkpoint name. */
export function describeScene(prompt: string, negativePrompt: string, checkpoint: string): Scene {
  const positive = tally(parsePrompt(prompt));
  const ckpt = checkpoint.toLowerCase();
  for (const rule of CHECKPOINT_STYLES) {
    if (!ckpt.includes(rule.key)) continue;
    positive.style.set(rule.style, (positive.style.get(rule.style) ?? 0) + 0.9);
    if (rule.mood) positive.mood.set(rule.mood, (positive.mood.get(rule.mood) ?? 0) + 1);
    if (rule.subject && positive.subject.size === 0) positive.subject.set(rule.subject, 1);
  }
  const negative = tally(parsePrompt(negativePrompt));
  const styles = subtract(positive.style, negative.style) as Scene['styles'];
  let style: StyleId | null = null;
  let styleWeight = 0;
  for (const [id, weight] of Object.entries(styles) as [StyleId, number][]) {
    if (weight > styleWeight) {
      style = id;
      styleWeight = weight;
    }
  }
  const shapes = [...positive.unknown]
    .filter(([text]) => !negative.unknown.has(text))
    .map(([text, weight]) => ({ text, weight }))
    .slice(0, 12);
  return {
    colors: subtract(positive.color, negative.color) as Scene['colors'],
    styles,
    subjects: subtract(positive.subject, negative.subject) as Scene['subjects'],
    moods: subtract(positive.mood, negative.mood) as Scene['moods'],
    shapes,
    style,
    styleWeight,
  };
}
