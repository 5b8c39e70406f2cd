import type { Selectable } from 'kysely';
import type { Database } from '../../platform/db/database.js';
import { IdTableRepository } from '../../platform/db/id-table-repository.js';
import type { ComboPlanTable } from '../../platform/db/schema.js';

export type ComboPlanRow = Selectable<ComboPlanTable>;

export class ComboRepository extends IdTableRepository<'combo_plans'> {
  constructor(db: Database) {
    super(db, 'combo_plans');
  }

  list(enabledOnly: boolean) {
    let query = this.db.selectFrom('combo_plans').selectAll();
    if (enabledOnly) query = query.where('enabled', '=', 1);
    return query.orderBy('sort').orderBy('created_at').execute();
  }

  find(id: string) {
    return this.db.selectFrom('combo_plans').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
