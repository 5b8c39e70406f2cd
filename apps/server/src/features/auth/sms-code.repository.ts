import type { Insertable } from 'kysely';
import type { Database } from '../../platform/db/database.js';
import type { SmsCodeTable } from '../../platform/db/schema.js';

export class SmsCodeRepository {
  constructor(private readonly db: Database) {}

  async insert(row: Insertable<SmsCodeTable>): Promise<void> {
    await this.db.insertInto('sms_codes').values(row).execute();
  }

  /**
   * Claims the send slot of a mobile at `now` unless a code went to it after `since`, in one statement: of
   * concurrent claims on SQLite or PostgreSQL (a second upsert waits for the first's row and sees its time), only
   * one wins. True when this one did.
   */
  async claimSendSlot(mobile: string, now: string, since: string): Promise<boolean> {
    const row = await this.db
      .insertInto('sms_send_slots')
      .values({ mobile, sent_at: now })
      .onConflict((oc) =>
        oc.column('mobile').doUpdateSet({ sent_at: now }).where('sms_send_slots.sent_at', '<=', since),
      )
      .returning('mobile')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** When a code last went to the mobile (the slot's holder). */
  async lastSentAt(mobile: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('sms_send_slots')
      .select('sent_at')
      .where('mobile', '=', mobile)
      .executeTakeFirst();
    return row?.sent_at;
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

  /** Codes past their expiry, and send slots whose interval ended before `slotsBefore`. */
  async deleteExpired(now: string, slotsBefore: string): Promise<void> {
    await this.db.deleteFrom('sms_codes').where('expires_at', '<', now).execute();
    await this.db.deleteFrom('sms_send_slots').where('sent_at', '<', slotsBefore).execute();
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
