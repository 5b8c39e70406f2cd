import type { Insertable } from 'kysely';
import type { Database } from '../../platform/db/database.js';
import type { SmsCodeTable } from '../../platform/db/schema.js';

export class SmsCodeRepository {
  constructor(private readonly db: Database) {}

  async insert(row: Insertable<SmsCodeTable>): Promise<void> {
    await this.db.insertInto('sms_codes').values(row).execute();
  }

  latestSentTo(mobile: string) {
    return this.db
      .selectFrom('sms_codes')
      .selectAll()
      .where('mobile', '=', mobile)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  latestOfScene(mobile: string, scene: string) {
    return this.db
      .selectFrom('sms_codes')
      .selectAll()
      .where('mobile', '=', mobile)
      .where('scene', '=', scene)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  async deleteExpired(now: string): Promise<void> {
    await this.db.deleteFrom('sms_codes').where('expires_at', '<', now).execute();
  }

  find(id: string) {
    return this.db.selectFrom('sms_codes').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Counts one check of an unused code in a single statement, so concurrent guesses cannot all read the same
   * count: the tries taken so far, or null when the code is used or has no tries left.
   */
  async takeTry(id: string, maxTries: number): Promise<number | null> {
    const row = await this.db
      .updateTable('sms_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('attempts', '<', maxTries)
      .where('used_at', 'is', null)
      .returning('attempts')
      .executeTakeFirst();
    return row?.attempts ?? null;
  }

  /** Marks the code used; false when someone else used it first. */
  async markUsed(id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('sms_codes')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
