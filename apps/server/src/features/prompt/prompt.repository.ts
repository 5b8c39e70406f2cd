import type { Insertable, Updateable } from 'kysely';
import { countRows, type PageRequest, pageRows } from '../../platform/db/count.js';
import type { Database } from '../../platform/db/database.js';
import type { PromptCategoryTable, PromptWordTable } from '../../platform/db/schema.js';

export type PromptVariant = 'positive' | 'negative';
export type WordFilter = {
  variant: PromptVariant;
  featuredOnly: boolean;
  keyword?: string;
  categoryIds?: string[];
};

export class PromptRepository {
  constructor(private readonly db: Database) {}

  categories(variant: PromptVariant) {
    return this.db
      .selectFrom('prompt_categories')
      .selectAll()
      .where('variant', '=', variant)
      .orderBy('sort')
      .orderBy('id')
      .execute();
  }

  findCategory(id: string) {
    return this.db.selectFrom('prompt_categories').selectAll().where('id', '=', id).executeTakeFirst();
  }

  words(variant: PromptVariant, featuredOnly: boolean) {
    let query = this.db.selectFrom('prompt_words').selectAll().where('variant', '=', variant);
    if (featuredOnly) query = query.where('featured', '=', 1);
    return query.orderBy('sort').orderBy('id').execute();
  }

  private filtered(filter: WordFilter) {
    let query = this.db.selectFrom('prompt_words').where('variant', '=', filter.variant);
    if (filter.featuredOnly) query = query.where('featured', '=', 1);
    if (filter.categoryIds) query = query.where('category_id', 'in', filter.categoryIds);
    if (filter.keyword) {
      // Wildcards are dropped rather than escaped: SQLite and PostgreSQL escape LIKE differently.
      const pattern = `%${filter.keyword.toLowerCase().replace(/[\\%_]/g, '')}%`;
      query = query.where((eb) =>
        eb.or([eb(eb.fn('lower', ['label']), 'like', pattern), eb(eb.fn('lower', ['text']), 'like', pattern)]),
      );
    }
    return query;
  }

  page(filter: WordFilter, page: PageRequest) {
    return pageRows(this.filtered(filter), page, (words) => words.selectAll().orderBy('sort').orderBy('id'));
  }

  findWord(id: string) {
    return this.db.selectFrom('prompt_words').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insertCategory(row: Insertable<PromptCategoryTable>): Promise<void> {
    await this.db.insertInto('prompt_categories').values(row).execute();
  }

  async insertWords(rows: Insertable<PromptWordTable>[]): Promise<void> {
    if (rows.length > 0) await this.db.insertInto('prompt_words').values(rows).execute();
  }

  async updateWord(id: string, changes: Updateable<PromptWordTable>): Promise<void> {
    await this.db.updateTable('prompt_words').set(changes).where('id', '=', id).execute();
  }

  async deleteWord(id: string): Promise<void> {
    await this.db.deleteFrom('prompt_words').where('id', '=', id).execute();
  }

  async countCategories(): Promise<number> {
    return countRows(this.db.selectFrom('prompt_categories'));
  }
}
