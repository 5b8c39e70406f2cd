import type { Selectable } from 'kysely';
import type { Database } from '../../platform/db/database.js';
import { IdTableRepository } from '../../platform/db/id-table-repository.js';
import type { BackendTable } from '../../platform/db/schema.js';
import type { SyncedAssets } from './backend-roster.js';

export type BackendRow = Selectable<BackendTable>;

export class BackendRepository extends IdTableRepository<'backends'> {
  constructor(db: Database) {
    super(db, 'backends');
  }

  /** A backend goes with what its syncs reported: a new one at its address starts unsynced. */
  override async delete(id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('backend_assets').where('backend_id', '=', id).execute();
      await trx.deleteFrom('backend_syncs').where('backend_id', '=', id).execute();
      await super.delete(id, trx);
    });
  }

  list(): Promise<BackendRow[]> {
    return this.db.selectFrom('backends').selectAll().orderBy('created_at').orderBy('id').execute();
  }

  find(id: string): Promise<BackendRow | undefined> {
    return this.db.selectFrom('backends').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The checkpoints and LoRAs of every backend that was synced (one without a sync row is absent). */
  async syncedAssets(): Promise<SyncedAssets> {
    const [syncs, assets] = await Promise.all([
      this.db.selectFrom('backend_syncs').select('backend_id').execute(),
      this.db.selectFrom('backend_assets').select(['backend_id', 'kind', 'title']).where('kind', '!=', 'vae').execute(),
    ]);
    const out: SyncedAssets = new Map(
      syncs.map((row) => [row.backend_id, { checkpoints: new Set<string>(), loras: new Set<string>() }]),
    );
    for (const asset of assets) {
      const entry = out.get(asset.backend_id);
      if (entry) (asset.kind === 'lora' ? entry.loras : entry.checkpoints).add(asset.title);
    }
    return out;
  }
}
