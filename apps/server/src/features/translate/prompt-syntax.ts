/**
 * Stable Diffusion prompt syntax vs the words inside it. Only `text` pieces that contain Chinese
 * are translated; brackets, weights, `<lora:…>` blocks, escapes and commas pass through unchanged.
 */
export type PromptPiece = { kind: 'syntax' | 'text'; text: string };

const HAN = /\p{Script=Han}/u;
export const hasHan = (text: string) => HAN.test(text);

/** Full-width punctuation Chinese keyboards type inside prompts, as the ASCII the engines parse. */
const FULL_WIDTH: Record<string, string> = {
  '，': ',',
  '、': ',',
  '；': ',',
  '。': ',',
  '！': ',',
  '？': ',',
  '（': '(',
  '）': ')',
  '【': '[',
  '】': ']',
  '｛': '{',
  '｝': '}',
  '：': ':',
  '｜': '|',
  '＜': '<',
  '＞': '>',
  '　': ' ',
  '“': '',
  '”': '',
  '‘': '',
  '’': '',
  '「': '',
  '」': '',
  '『': '',
  '』': '',
  '《': '',
  '》': '',
};
const FULL_WIDTH_RE = new RegExp(`[${Object.keys(FULL_WIDTH).join('')}]`, 'g');

/** `<lora:name:0.8>` (names may be Chinese: never translated), `\(` escapes, brackets, `:` `|` `,`, line breaks. */
const TOKEN = /<[^<>\n]*>|\\[\s\S]|[()[\]{}|,:]|\r?\n|[^<\\()[\]{}|,:\r\n]+|</g;
const SYNTAX = /^(?:<[^<>\n]*>|\\[\s\S]|[()[\]{}|,:]|\r?\n)$/;

export function splitPrompt(input: string): PromptPiece[] {
  const text = input.replace(FULL_WIDTH_RE, (c) => FULL_WIDTH[c] ?? c);
  const pieces: PromptPiece[] = [];
  for (const [token] of text.matchAll(TOKEN)) {
    const kind = SYNTAX.test(token) && token !== '<' ? 'syntax' : 'text';
    const last = pieces[pieces.length - 1];
    // A stray `<` is ordinary text: glue it to its neighbours so words stay whole.
    if (kind === 'text' && last?.kind === 'text') last.text += token;
    else pieces.push({ kind, text: token });
  }
  return pieces;
}

/** A piece after translation; `translated` pieces get a space where they touch a word or bracket. */
export type OutputPiece = PromptPiece & { translated?: boolean };

const WORD_END = /[\p{L}\p{N})\]}>]$/u;
const WORD_START = /^[\p{L}\p{N}([{<]/u;

/** Joins pieces back: every comma becomes `, `, and translated words do not run into their neighbours. */
export function joinPrompt(pieces: OutputPiece[]): string {
  let out = '';
  let afterComma = false;
  let lastTranslated = false;
  for (const piece of pieces) {
    if (piece.kind === 'syntax' && piece.text === ',') {
      out = `${out.trimEnd()}, `;
      afterComma = true;
      lastTranslated = false;
      continue;
    }
    let text = piece.translated ? piece.text.replace(/\s+/g, ' ') : piece.text;
    if (afterComma) text = text.trimStart();
    if (!text) continue;
    if ((piece.translated || lastTranslated) && WORD_END.test(out) && WORD_START.test(text)) out += ' ';
    out += text;
    afterComma = false;
    lastTranslated = piece.translated === true;
  }
  return out.trim();
}
