import type { Database, Executor } from '../../platform/db/database.js';

export class AppConfigRepository {
  constructor(private readonly db: Database) {}

  find(key: string) {
    return this.db.selectFrom('app_configs').select(['title', 'content']).where('key', '=', key).executeTakeFirst();
  }

  async upsert(key: string, title: string, content: string, now: string, trx: Executor = this.db): Promise<void> {
    await trx
      .insertInto('app_configs')
      .values({ key, title, content, updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ title, content, updated_at: now }))
      .execute();
  }

  async insertIfMissing(key: string, title: string, content: string, now: string): Promise<void> {
    await this.db
      .insertInto('app_configs')
      .values({ key, title, content, updated_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  }
}
