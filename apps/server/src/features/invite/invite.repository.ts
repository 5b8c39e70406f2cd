import type { Insertable } from 'kysely';
import { type PageRequest, pageRows } from '../../platform/db/count.js';
import type { Database, Executor } from '../../platform/db/database.js';
import type { InviteCodeTable } from '../../platform/db/schema.js';

export class InviteRepository {
  constructor(private readonly db: Database) {}

  async insert(row: Insertable<InviteCodeTable>): Promise<void> {
    await this.db.insertInto('invite_codes').values(row).execute();
  }

  findByCode(code: string, trx: Executor = this.db) {
    return trx.selectFrom('invite_codes').selectAll().where('code', '=', code).executeTakeFirst();
  }

  /** Takes one use if any is left; false when used up (safe under concurrent redemptions). */
  async takeUse(id: string, trx: Executor = this.db): Promise<boolean> {
    const result = await trx
      .updateTable('invite_codes')
      .set((eb) => ({ used_count: eb('used_count', '+', 1) }))
      .where('id', '=', id)
      .whereRef('used_count', '<', 'max_uses')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  page(page: PageRequest) {
    return pageRows(this.db.selectFrom('invite_codes'), page, (codes) =>
      // Codes made in one batch share their instant: the id keeps one order across pages.
      codes.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
    );
  }
}
