import type { Insertable } from 'kysely';
import type { Database } from '../../platform/db/database.js';
import type { FileTable } from '../../platform/db/schema.js';

export class FileRepository {
  constructor(private readonly db: Database) {}

  async insert(row: Insertable<FileTable>): Promise<void> {
    await this.db.insertInto('files').values(row).execute();
  }

  findById(id: string) {
    return this.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
