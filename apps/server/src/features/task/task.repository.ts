import type { Selectable } from 'kysely';
import { countRows } from '../../platform/db/count.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { IdTableRepository } from '../../platform/db/id-table-repository.js';
import type { TaskNodeTable } from '../../platform/db/schema.js';

export type TaskRow = Selectable<TaskNodeTable>;

export class TaskRepository extends IdTableRepository<'task_nodes'> {
  constructor(db: Database) {
    super(db, 'task_nodes');
  }

  find(id: string, trx: Executor = this.db) {
    return trx.selectFrom('task_nodes').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Official nodes (owner null), or a user's own copies when ownerId is given. */
  listOf(ownerId: string | null) {
    const query = this.db.selectFrom('task_nodes').selectAll();
    return (ownerId === null ? query.where('owner_id', 'is', null) : query.where('owner_id', '=', ownerId))
      .orderBy('sort')
      .orderBy('created_at')
      .execute();
  }

  children(parentId: string, trx: Executor = this.db) {
    return trx
      .selectFrom('task_nodes')
      .selectAll()
      .where('parent_id', '=', parentId)
      .orderBy('sort')
      .orderBy('created_at')
      .execute();
  }

  topLevel(ownerId: string | null, trx: Executor = this.db) {
    const query = trx.selectFrom('task_nodes').selectAll().where('parent_id', 'is', null);
    return (ownerId === null ? query.where('owner_id', 'is', null) : query.where('owner_id', '=', ownerId))
      .orderBy('sort')
      .orderBy('created_at')
      .execute();
  }

  async countOfficial(): Promise<number> {
    return countRows(this.db.selectFrom('task_nodes').where('owner_id', 'is', null));
  }
}
