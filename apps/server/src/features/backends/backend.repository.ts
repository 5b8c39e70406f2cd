import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Database } from '../../platform/db/database.js';
import type { BackendTable } from '../../platform/db/schema.js';

export type BackendRow = Selectable<BackendTable>;

export class BackendRepository {
  constructor(private readonly db: Database) {}

  list(): Promise<BackendRow[]> {
    return this.db.selectFrom('backends').selectAll().orderBy('created_at').orderBy('id').execute();
  }

  find(id: string): Promise<BackendRow | undefined> {
    return this.db.selectFrom('backends').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insert(row: Insertable<BackendTable>): Promise<void> {
    await this.db.insertInto('backends').values(row).execute();
  }

  async update(id: string, patch: Updateable<BackendTable>): Promise<void> {
    await this.db.updateTable('backends').set(patch).where('id', '=', id).execute();
  }

  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('backends').where('id', '=', id).execute();
  }
}
