import type { Insertable, Selectable } from 'kysely';
import { countRows, type PageRequest, pageRows } from '../../platform/db/count.js';
import type { Database, Executor } from '../../platform/db/database.js';
import type { NoticeTable } from '../../platform/db/schema.js';

export type NoticeRow = Selectable<NoticeTable> & { thumb_key: string | null; hidden: number | null };

/** SQL of 通知: what a user is told about their works. */
export class NoticeRepository {
  constructor(private readonly db: Database) {}

  async insert(row: Insertable<NoticeTable>, trx: Executor = this.db): Promise<void> {
    await trx.insertInto('notices').values(row).execute();
  }

  /** The user's notices, newest first, with the work's state for its thumbnail (null once deleted). */
  page(userId: string, page: PageRequest) {
    return pageRows(this.db.selectFrom('notices').where('notices.user_id', '=', userId), page, (notices) =>
      notices
        .leftJoin('works', 'works.id', 'notices.work_id')
        .selectAll('notices')
        .select(['works.thumb_key', 'works.hidden'])
        .orderBy('notices.created_at', 'desc')
        .orderBy('notices.id', 'desc'),
    );
  }

  unread(userId: string): Promise<number> {
    return countRows(this.db.selectFrom('notices').where('user_id', '=', userId).where('read_at', 'is', null));
  }

  /** Marks the user's notices read: those of `ids`, or all without; others' ids change nothing. */
  async markRead(userId: string, ids: string[] | undefined, at: string): Promise<void> {
    let query = this.db.updateTable('notices').set({ read_at: at }).where('user_id', '=', userId);
    if (ids) query = query.where('id', 'in', ids);
    await query.where('read_at', 'is', null).execute();
  }
}
