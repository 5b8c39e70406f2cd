import { countRows, type PageRequest, pageRows } from '../../platform/db/count.js';
import type { Database } from '../../platform/db/database.js';

const contains = (text: string) => `%${text.replace(/[%_\\]/g, '\\$&')}%`;

/** The prompt groups of each generation, per user (rows are written by the generation service). */
export class PromptHistoryRepository {
  constructor(private readonly db: Database) {}

  page(userId: string, page: PageRequest, keyword?: string) {
    let query = this.db
      .selectFrom('prompt_history')
      .leftJoin('generations', 'generations.id', 'prompt_history.generation_id')
      .where('prompt_history.user_id', '=', userId);
    if (keyword) {
      const like = contains(keyword);
      query = query.where((eb) =>
        eb.or([
          eb('prompt_history.prompt_group', 'like', like),
          eb('prompt_history.negative_prompt_group', 'like', like),
        ]),
      );
    }
    return pageRows(query, page, (entries) =>
      entries
        .select([
          'prompt_history.id',
          'prompt_history.prompt_group',
          'prompt_history.negative_prompt_group',
          'prompt_history.pin',
          'prompt_history.created_at',
          'generations.template_name',
        ])
        .orderBy('prompt_history.pin', 'desc')
        .orderBy('prompt_history.created_at', 'desc')
        .orderBy('prompt_history.id', 'desc'),
    );
  }

  /** Rows changed: 0 when the entry is not the user's. */
  async setPin(userId: string, id: string, pin: 0 | 1): Promise<number> {
    const result = await this.db
      .updateTable('prompt_history')
      .set({ pin })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async countOwned(userId: string, ids: string[]): Promise<number> {
    return countRows(this.db.selectFrom('prompt_history').where('user_id', '=', userId).where('id', 'in', ids));
  }

  async deleteOwned(userId: string, ids: string[]): Promise<void> {
    await this.db.deleteFrom('prompt_history').where('user_id', '=', userId).where('id', 'in', ids).execute();
  }
}
