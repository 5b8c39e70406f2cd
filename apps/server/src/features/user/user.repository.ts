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

  async countAdmins(): Promise<number> {
    return countRows(this.db.selectFrom('users').where('is_admin', '=', 1));
  }
}
