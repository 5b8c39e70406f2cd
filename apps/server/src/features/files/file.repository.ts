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

  /** True when the file is shown to everyone: a user's avatar or the cover of a task, template or model. */
  async inPublicUse(id: string, url: string): Promise<boolean> {
    const use = await this.db
      .selectFrom('users')
      .select('id')
      .where('avatar_file_id', '=', id)
      .union(this.db.selectFrom('task_nodes').select('id').where('cover', '=', url))
      .union(this.db.selectFrom('templates').select('id').where('cover', '=', url))
      // Users see a template as last published, which may still show a cover its draft has since replaced.
      .union(this.db.selectFrom('templates').select('id').where('published_json', 'like', `%"${url}"%`))
      .union(this.db.selectFrom('models').select('id').where('cover', '=', url))
      .limit(1)
      .executeTakeFirst();
    return use !== undefined;
  }
}
