import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, Executor } from './database.js';
import type { DB } from './schema.js';

/** Tables whose rows are named by a string `id`. */
export type IdTable = { [T in keyof DB]: DB[T] extends { id: string } ? T : never }[keyof DB];

/** Any table seen as rows named by `id` only: Kysely cannot resolve the columns of a table still a type parameter. */
type RowsById = Kysely<Record<string, { id: string }>>;

/**
 * The base of a repository of one table whose rows are named by `id` (tasks, templates, backends, plans): the
 * plain writes of one row, each able to join a caller's transaction. Its queries stay in the repository itself.
 */
export abstract class IdTableRepository<T extends IdTable> {
  constructor(
    protected readonly db: Database,
    private readonly table: T,
  ) {}

  async insert(row: Insertable<DB[T]>, trx: Executor = this.db): Promise<void> {
    await trx.insertInto(this.table).values(row).execute();
  }

  async update(id: string, changes: Updateable<DB[T]>, trx: Executor = this.db): Promise<void> {
    await (trx as unknown as RowsById)
      .updateTable(this.table as string)
      .set(changes)
      .where('id', '=', id)
      .execute();
  }

  async delete(id: string, trx: Executor = this.db): Promise<void> {
    await (trx as unknown as RowsById)
      .deleteFrom(this.table as string)
      .where('id', '=', id)
      .execute();
  }
}
