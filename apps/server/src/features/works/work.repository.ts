import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../../platform/db/database.js';
import type { DB, WorkTable } from '../../platform/db/schema.js';

export type WorkRow = Selectable<WorkTable>;

export class WorkRepository {
  constructor(private readonly db: Database) {}

  async insert(row: Insertable<WorkTable>, executor: Kysely<DB> = this.db): Promise<void> {
    await executor.insertInto('works').values(row).execute();
  }

  find(id: string): Promise<WorkRow | undefined> {
    return this.db.selectFrom('works').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findOwned(userId: string, id: string): Promise<WorkRow | undefined> {
    return this.db
      .selectFrom('works')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** Storage keys only: what the image routes need, nothing else read. */
  keysOf(id: string): Promise<Pick<WorkRow, 'image_key' | 'thumb_key'> | undefined> {
    return this.db.selectFrom('works').select(['image_key', 'thumb_key']).where('id', '=', id).executeTakeFirst();
  }

  listByJob(jobId: string): Promise<WorkRow[]> {
    return this.db
      .selectFrom('works')
      .selectAll()
      .where('job_id', '=', jobId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }
}
