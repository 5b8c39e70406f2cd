import type { Insertable, Updateable } from 'kysely';
import { countRows } from '../../platform/db/count.js';
import type { Database } from '../../platform/db/database.js';
import type { ModelGroupTable, ModelTable } from '../../platform/db/schema.js';

export class ModelRepository {
  constructor(private readonly db: Database) {}

  groups() {
    return this.db.selectFrom('model_groups').selectAll().orderBy('sort').orderBy('id').execute();
  }

  models() {
    return this.db.selectFrom('models').selectAll().orderBy('sort').orderBy('id').execute();
  }

  findModel(id: string) {
    return this.db.selectFrom('models').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findGroup(id: string) {
    return this.db.selectFrom('model_groups').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insertGroup(row: Insertable<ModelGroupTable>): Promise<void> {
    await this.db.insertInto('model_groups').values(row).execute();
  }

  async insertModel(row: Insertable<ModelTable>): Promise<void> {
    await this.db.insertInto('models').values(row).execute();
  }

  async updateModel(id: string, changes: Updateable<ModelTable>): Promise<void> {
    await this.db.updateTable('models').set(changes).where('id', '=', id).execute();
  }

  async deleteModel(id: string): Promise<void> {
    await this.db.deleteFrom('models').where('id', '=', id).execute();
  }

  async updateGroup(id: string, changes: Updateable<ModelGroupTable>): Promise<void> {
    await this.db.updateTable('model_groups').set(changes).where('id', '=', id).execute();
  }

  async deleteGroup(id: string): Promise<void> {
    await this.db.deleteFrom('model_groups').where('id', '=', id).execute();
  }

  async countModelsIn(groupId: string): Promise<number> {
    return countRows(this.db.selectFrom('models').where('group_id', '=', groupId));
  }

  /** The checkpoints models of one engine already use. */
  async checkpointsOf(engine: string): Promise<Set<string>> {
    const rows = await this.db.selectFrom('models').select('checkpoint').where('engine', '=', engine).execute();
    return new Set(rows.map((row) => row.checkpoint));
  }

  async countGroups(): Promise<number> {
    return countRows(this.db.selectFrom('model_groups'));
  }

  /** A model of the engine using this checkpoint, without a hash, takes the one its backend reported. */
  async fillHash(engine: string, checkpoint: string, hash: string): Promise<void> {
    await this.db
      .updateTable('models')
      .set({ hash })
      .where('engine', '=', engine)
      .where('checkpoint', '=', checkpoint)
      .where('hash', 'is', null)
      .execute();
  }
}
