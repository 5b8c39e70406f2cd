import type { Selectable } from 'kysely';
import type { Database } from '../../platform/db/database.js';
import { IdTableRepository } from '../../platform/db/id-table-repository.js';
import type { BackendTable } from '../../platform/db/schema.js';

export type BackendRow = Selectable<BackendTable>;

export class BackendRepository extends IdTableRepository<'backends'> {
  constructor(db: Database) {
    super(db, 'backends');
  }

  list(): Promise<BackendRow[]> {
    return this.db.selectFrom('backends').selectAll().orderBy('created_at').orderBy('id').execute();
  }

  find(id: string): Promise<BackendRow | undefined> {
    return this.db.selectFrom('backends').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
