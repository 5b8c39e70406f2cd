import type { Insertable } from 'kysely';
import type { Database, Executor } from '../../platform/db/database.js';
import type { RegistrationTable } from '../../platform/db/schema.js';

export class RegistrationRepository {
  constructor(private readonly db: Database) {}

  async insert(row: Insertable<RegistrationTable>): Promise<void> {
    await this.db.insertInto('registrations').values(row).execute();
  }

  findOpen(id: string, now: string) {
    return this.db
      .selectFrom('registrations')
      .selectAll()
      .where('id', '=', id)
      .where('completed_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  async deleteExpired(now: string): Promise<void> {
    await this.db.deleteFrom('registrations').where('expires_at', '<', now).execute();
  }

  async complete(id: string, now: string, trx: Executor = this.db): Promise<boolean> {
    const result = await trx
      .updateTable('registrations')
      .set({ completed_at: now })
      .where('id', '=', id)
      .where('completed_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
