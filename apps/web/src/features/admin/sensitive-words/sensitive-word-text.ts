import {
  SENSITIVE_WORD_BATCH_MAX,
  type SensitiveCategoryCount,
  type SensitiveWordAddResult,
  sensitiveWordTextSchema,
} from '@huafang/contracts';

/** The words typed into 添加敏感词, one a line; blank lines are ignored. */
export function wordsOfText(text: string | undefined): string[] {
  return (text ?? '')
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/**
 * The first problem of the typed words, in the contract's words (the server answers the same), or null. With
 * several lines the message names the line, as import does.
 */
export function wordsProblem(text: string | undefined): string | null {
  const lines = (text ?? '').split(/\r\n|\r|\n/);
  const words = wordsOfText(text);
  if (words.length === 0) return '请填写敏感词';
  if (words.length > SENSITIVE_WORD_BATCH_MAX) return `一次最多添加 ${SENSITIVE_WORD_BATCH_MAX} 个敏感词`;
  for (const [index, line] of lines.entries()) {
    if (!line.trim()) continue;
    const parsed = sensitiveWordTextSchema.safeParse(line);
    if (parsed.success) continue;
    const message = parsed.error.issues[0]?.message ?? '敏感词格式不正确';
    return words.length > 1 ? `第 ${index + 1} 行：${message}` : message;
  }
  return null;
}

/** The server's message with what it did: 添加成功：新增 3 个，1 个已在词库中. */
export function addedText(msg: string, { added, skipped }: SensitiveWordAddResult): string {
  return `${msg}：新增 ${added} 个${skipped > 0 ? `，${skipped} 个已在词库中` : ''}`;
}

/** The category filter: every category in use with its number of words. */
export function categoryFilterOptions(categories: SensitiveCategoryCount[]): { label: string; value: string }[] {
  return categories.map(({ category, count }) => ({ label: `${category}（${count}）`, value: category }));
}

/** Categories to pick from when adding or importing; the admin may also type a new one. */
export function categoryChoices(categories: SensitiveCategoryCount[], fallback: string): { value: string }[] {
  const names = categories.map(({ category }) => category);
  return [...new Set([fallback, ...names])].map((value) => ({ value }));
}

/**
 * A word list file as text: UTF-8 (a BOM is fine), else GB18030, which Windows tools in China often save; the
 * server drops a leading BOM itself.
 */
export function decodeWordFile(bytes: ArrayBuffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('gb18030').decode(bytes);
  }
}
