import type { Insertable, Selectable, Updateable } from 'kysely';
import { countRows } from '../../platform/db/count.js';
import type { Database } from '../../platform/db/database.js';
import type { UserTable } from '../../platform/db/schema.js';

export type UserRow = Selectable<UserTable>;

export class UserRepository {
  constructor(private readonly db: Database) {}

  findById(id: string) {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByAccount(account: string) {
    return this.db.selectFrom('users').selectAll().where('account', '=', account).executeTakeFirst();
  }

  findByMobile(mobile: string) {
    return this.db.selectFrom('users').selectAll().where('mobile', '=', mobile).executeTakeFirst();
  }

  async insert(row: Insertable<UserTable>): Promise<void> {
    await this.db.insertInto('users').values(row).execute();
  }

  async update(id: string, changes: Updateable<UserTable>): Promise<void> {
    await this.db.updateTable('users').set(changes).where('id', '=', id).execute();
  }

  /**
   * Gives a user without an invite this one, in a single conditional statement: of two codes redeemed at once
   * only one finds the user without an invite. False when the user already holds one.
   */
  async attachInvite(id: string, invite: { id: string; code_type: string }, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ invite_code_id: invite.id, code_type: invite.code_type, updated_at: now })
      .where('id', '=', id)
      .where('invite_code_id', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async countAdmins(): Promise<number> {
    return countRows(this.db.selectFrom('users').where('is_admin', '=', 1));
  }
}
