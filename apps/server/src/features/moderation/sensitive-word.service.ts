import {
  DEFAULT_SENSITIVE_CATEGORY,
  type Page,
  SENSITIVE_WORD_IMPORT_MAX,
  type SensitiveCategoryCount,
  type SensitiveWord,
  type SensitiveWordAddResult,
  type SensitiveWordImportBody,
  type SensitiveWordQuery,
  sensitiveCategorySchema,
  sensitiveWordTextSchema,
} from '@huafang/contracts';
import type { Insertable, Selectable } from 'kysely';
import type { SensitiveWordTable } from '../../platform/db/schema.js';
import { fail, notFound } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import type { Repositories } from '../../repositories.js';
import { normalizeWord } from './normalize-text.js';
import type { SensitiveWordRepository } from './sensitive-word.repository.js';
import type { SensitiveWordFilter } from './sensitive-word-filter.js';

/**
 * The demo list SEED_DEMO writes: a few plainly bad example words, so the filter can be seen working. It is not a
 * real list; an operator imports their own (docs/compliance.md § 内容安全). Words that negative prompts use to keep
 * content out (nsfw, nudity, gore, 血腥) are left out on purpose: negative prompts are checked too.
 */
export const DEMO_SENSITIVE_WORDS: Record<string, string[]> = {
  色情: ['色情', '淫秽', '裸聊', 'porn'],
  暴力: ['血腥暴力', '虐杀', '斩首'],
  政治敏感: ['颠覆国家政权', '分裂国家'],
};

type Entry = { word: string; category: string };

/** The `normalized` column's size: compatibility characters can grow under NFKC (㍿ is four characters). */
const NORMALIZED_MAX = 100;

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const toItem = (row: Selectable<SensitiveWordTable>): SensitiveWord => ({
  id: row.id,
  word: row.word,
  category: row.category,
  createdAt: row.created_at,
});

/** The first problem of a word or category as the contract words it, or null when both are fine. */
function problemOf(entry: Entry): string | null {
  const category = sensitiveCategorySchema.safeParse(entry.category);
  if (!category.success) return category.error.issues[0]?.message ?? '分类格式不正确';
  const word = sensitiveWordTextSchema.safeParse(entry.word);
  if (!word.success) return word.error.issues[0]?.message ?? '敏感词格式不正确';
  const normalized = normalizeWord(entry.word);
  if (!normalized) return '敏感词须包含文字、字母或数字';
  if (normalized.length > NORMALIZED_MAX) return '敏感词过长';
  return null;
}

/** 敏感词库 for admins: list, add, delete, import and export; every change is announced to the filter. */
export class SensitiveWordService {
  private readonly words: SensitiveWordRepository;

  constructor(
    private readonly repos: Repositories,
    private readonly filter: SensitiveWordFilter,
  ) {
    this.words = repos.sensitiveWords;
  }

  async page(query: SensitiveWordQuery): Promise<Page<SensitiveWord>> {
    const where = {
      category: query.category || undefined,
      normalizedKeyword: query.keyword ? normalizeWord(query.keyword) : undefined,
    };
    const { rows, total } = await this.words.page(where, query);
    return { list: rows.map(toItem), current: query.current, pageSize: query.pageSize, total };
  }

  /** In one fixed order on SQLite and PostgreSQL alike (their collations differ). */
  async categories(): Promise<SensitiveCategoryCount[]> {
    return (await this.words.categories()).sort((a, b) => byCodeUnits(a.category, b.category));
  }

  async add(words: string[], category: string): Promise<SensitiveWordAddResult> {
    const entries = words.map((word) => ({ word, category }));
    for (const entry of entries) {
      const problem = problemOf(entry);
      if (problem) throw fail(`「${entry.word}」：${problem}`);
    }
    return this.save(entries);
  }

  /** One word a line, `分类:词` naming its category; a bad line refuses the whole text, named by its number. */
  async import(body: SensitiveWordImportBody): Promise<SensitiveWordAddResult> {
    const entries: Entry[] = [];
    const lines = body.text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
    for (const [index, line] of lines.entries()) {
      const text = line.trim();
      if (!text) continue;
      const colon = text.search(/[:：]/);
      const entry =
        colon < 0
          ? { word: text, category: body.category ?? DEFAULT_SENSITIVE_CATEGORY }
          : { word: text.slice(colon + 1).trim(), category: text.slice(0, colon).trim() };
      const problem = problemOf(entry);
      if (problem) throw fail(`第 ${index + 1} 行：${problem}`);
      if (entries.length === SENSITIVE_WORD_IMPORT_MAX) {
        throw fail(`一次最多导入 ${SENSITIVE_WORD_IMPORT_MAX} 个敏感词，请分批导入`);
      }
      entries.push(entry);
    }
    if (entries.length === 0) throw fail('没有可导入的敏感词，请每行填写一个');
    return this.save(entries);
  }

  /** `分类:词` lines in the same fixed order, read back by import. */
  async export(category?: string): Promise<string> {
    const rows = await this.words.all({ category: category || undefined });
    const lines = rows.map((row) => `${row.category}:${row.word}`).sort(byCodeUnits);
    return lines.length > 0 ? `${lines.join('\n')}\n` : '';
  }

  async remove(ids: string[]): Promise<void> {
    const removed = await this.repos.transaction(async (trx) => {
      const count = await this.words.delete(ids, trx);
      if (count > 0) await this.words.bumpRevision(newId(), trx);
      return count;
    });
    if (removed === 0) throw notFound('敏感词不存在或已删除');
    await this.filter.changed();
  }

  /** SEED_DEMO: the demo list, once; a list an admin ever changed (or emptied) is left alone. */
  async seedDemo(): Promise<void> {
    if ((await this.words.revision()) !== null) return;
    await this.save(
      Object.entries(DEMO_SENSITIVE_WORDS).flatMap(([category, words]) => words.map((word) => ({ word, category }))),
    );
  }

  /** Words already listed, or given twice, once normalised, are skipped. */
  private async save(entries: Entry[]): Promise<SensitiveWordAddResult> {
    const now = nowIso();
    const rows = new Map<string, Insertable<SensitiveWordTable>>();
    for (const { word, category } of entries) {
      const normalized = normalizeWord(word);
      if (!rows.has(normalized)) rows.set(normalized, { id: newId(), word, normalized, category, created_at: now });
    }
    const added = await this.repos.transaction(async (trx) => {
      const inserted = await this.words.insertNew([...rows.values()], trx);
      if (inserted > 0) await this.words.bumpRevision(newId(), trx);
      return inserted;
    });
    if (added > 0) await this.filter.changed();
    return { added, skipped: entries.length - added };
  }
}
