import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Database } from '../../platform/db/database.js';
import type { ComboPlanTable } from '../../platform/db/schema.js';

export type ComboPlanRow = Selectable<ComboPlanTable>;

export class ComboRepository {
  constructor(private readonly db: Database) {}

  list(enabledOnly: boolean) {
    let query = this.db.selectFrom('combo_plans').selectAll();
    if (enabledOnly) query = query.where('enabled', '=', 1);
    return query.orderBy('sort').orderBy('created_at').execute();
  }

  find(id: string) {
    return this.db.selectFrom('combo_plans').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insert(row: Insertable<ComboPlanTable>): Promise<void> {
    await this.db.insertInto('combo_plans').values(row).execute();
  }

  async update(id: string, changes: Updateable<ComboPlanTable>): Promise<void> {
    await this.db.updateTable('combo_plans').set(changes).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('combo_plans').where('id', '=', id).execute();
  }
}
