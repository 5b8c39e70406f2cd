import type { Insertable } from 'kysely';
import { type PageRequest, pageRows } from '../../platform/db/count.js';
import type { Database, Executor } from '../../platform/db/database.js';
import type { SensitiveWordTable } from '../../platform/db/schema.js';
import { nowIso } from '../../platform/ids.js';
import type { AppConfigRepository } from '../app-config/app-config.repository.js';

/**
 * The app_configs row that changes with every change of the list (a random id): a process that may have missed the
 * change notice compares it instead of reading the whole list. Absent until the list is first changed.
 */
const REVISION_KEY = 'sensitiveWordsRevision';
/** Rows a statement inserts: well below SQLite's and PostgreSQL's bound-parameter limits. */
const INSERT_CHUNK = 500;

export type WordListFilter = { category?: string; normalizedKeyword?: string };

export class SensitiveWordRepository {
  constructor(
    private readonly db: Database,
    private readonly configs: AppConfigRepository,
  ) {}

  private filtered({ category, normalizedKeyword }: WordListFilter) {
    let query = this.db.selectFrom('sensitive_words');
    if (category) query = query.where('category', '=', category);
    // Normalised text holds no punctuation, so `%`, `_` and `\` cannot occur in the keyword.
    if (normalizedKeyword) query = query.where('normalized', 'like', `%${normalizedKeyword}%`);
    return query;
  }

  page(filter: WordListFilter, page: PageRequest) {
    return pageRows(this.filtered(filter), page, (words) =>
      words.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
    );
  }

  async categories(): Promise<{ category: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('sensitive_words')
      .select((eb) => ['category', eb.fn.countAll<string | number>().as('n')])
      .groupBy('category')
      .execute();
    return rows.map((row) => ({ category: row.category, count: Number(row.n) }));
  }

  /** Every word with its category, for the matcher and the export. */
  all(filter: WordListFilter = {}) {
    return this.filtered(filter).select(['word', 'category']).execute();
  }

  /** Inserts the rows whose normalised word is not listed yet; answers how many went in. */
  async insertNew(rows: Insertable<SensitiveWordTable>[], trx: Executor = this.db): Promise<number> {
    let added = 0;
    for (let at = 0; at < rows.length; at += INSERT_CHUNK) {
      const result = await trx
        .insertInto('sensitive_words')
        .values(rows.slice(at, at + INSERT_CHUNK))
        .onConflict((oc) => oc.column('normalized').doNothing())
        .executeTakeFirst();
      added += Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    return added;
  }

  async delete(ids: string[], trx: Executor = this.db): Promise<number> {
    const result = await trx.deleteFrom('sensitive_words').where('id', 'in', ids).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async revision(): Promise<string | null> {
    return (await this.configs.find(REVISION_KEY))?.content ?? null;
  }

  /** Marks a change of the list; inside the change's own transaction. */
  async bumpRevision(revision: string, trx?: Executor): Promise<void> {
    await this.configs.upsert(REVISION_KEY, '敏感词库版本', revision, nowIso(), trx);
  }
}
