import type { Database } from '../../platform/db/database.js';

/** When the next try may come after a counted one, by the failure count that try reached. */
export type BlockSchedule = {
  /** From this count on the key is locked until `lockedUntil`. */
  lockFrom: number;
  lockedUntil: string;
  /** Counts below `lockFrom` that make the next try wait; other counts let it come at once. */
  slowedUntil: ReadonlyMap<number, string>;
};

export class LoginGuardRepository {
  constructor(private readonly db: Database) {}

  /**
   * Counts one failure for `key` unless it is blocked at `now`, in one statement so concurrent tries on
   * SQLite and PostgreSQL each see the count the one before left. The new count, or null when blocked.
   */
  async count(key: string, now: string, schedule: BlockSchedule): Promise<number | null> {
    const untilFor = (failures: number) =>
      failures >= schedule.lockFrom ? schedule.lockedUntil : (schedule.slowedUntil.get(failures) ?? null);
    const row = await this.db
      .insertInto('login_failures')
      .values({ key, failures: 1, blocked_until: untilFor(1), updated_at: now })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet((eb) => {
            const before = eb.ref('login_failures.failures');
            let until = eb
              .case()
              .when(before, '>=', schedule.lockFrom - 1)
              .then(schedule.lockedUntil);
            for (const [failures, at] of schedule.slowedUntil) until = until.when(before, '=', failures - 1).then(at);
            return {
              failures: eb(before, '+', 1),
              blocked_until: until.else(null).end(),
              updated_at: now,
            };
          })
          .where((eb) =>
            eb.or([eb('login_failures.blocked_until', 'is', null), eb('login_failures.blocked_until', '<=', now)]),
          ),
      )
      .returning('failures')
      .executeTakeFirst();
    return row ? row.failures : null;
  }

  find(key: string) {
    return this.db.selectFrom('login_failures').selectAll().where('key', '=', key).executeTakeFirst();
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('key', '=', key).execute();
  }

  /** Forgets failures last counted before `before` whose block is over. */
  async deleteStale(before: string, now: string): Promise<void> {
    await this.db
      .deleteFrom('login_failures')
      .where('updated_at', '<', before)
      .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<=', now)]))
      .execute();
  }
}
