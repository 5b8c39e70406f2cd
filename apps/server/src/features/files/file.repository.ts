import { type Insertable, sql } from 'kysely';
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

  async ownerIsAdmin(ownerId: string): Promise<boolean> {
    const owner = await this.db.selectFrom('users').select('is_admin').where('id', '=', ownerId).executeTakeFirst();
    return owner?.is_admin === 1;
  }

  /**
   * True when the file is shown to everyone through its owner's own act: the owner's avatar, or the cover of a
   * task, template or model the owner wrote. Official content (no owner), models and LoRA styles are written by
   * admins, so there only an admin's upload counts. A cover naming someone else's upload makes nothing public.
   */
  async inPublicUse(file: { id: string; owner_id: string }, url: string): Promise<boolean> {
    const byAdmin = await this.ownerIsAdmin(file.owner_id);
    // '' stands for official content (owner_id null), which counts only for an admin's upload.
    const writers = byAdmin ? [file.owner_id, ''] : [file.owner_id];
    const writer = sql<string>`coalesce(owner_id, '')`;
    const templates = this.db.selectFrom('templates').select('id').where(writer, 'in', writers);
    let use = this.db
      .selectFrom('users')
      .select('id')
      .where('id', '=', file.owner_id)
      .where('avatar_file_id', '=', file.id)
      .union(this.db.selectFrom('task_nodes').select('id').where(writer, 'in', writers).where('cover', '=', url))
      .union(templates.where('cover', '=', url))
      // Users see a template as last published, which may still show a cover its draft has since replaced.
      .union(templates.where('published_json', 'like', `%"${url}"%`));
    if (byAdmin) {
      use = use
        .union(this.db.selectFrom('models').select('id').where('cover', '=', url))
        .union(this.db.selectFrom('loras').select('id').where('cover', '=', url));
    }
    return (await use.limit(1).executeTakeFirst()) !== undefined;
  }
}
