import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Database } from '../../platform/db/database.js';
import type { LoraTable } from '../../platform/db/schema.js';

export type LoraRow = Selectable<LoraTable>;

/** LoRA styles, what each backend reported at its last sync, and who holds which plan (for access rules). */
export class LoraRepository {
  constructor(private readonly db: Database) {}

  list(): Promise<LoraRow[]> {
    return this.db.selectFrom('loras').selectAll().orderBy('sort').orderBy('name').orderBy('id').execute();
  }

  find(id: string): Promise<LoraRow | undefined> {
    return this.db.selectFrom('loras').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The Chinese names of some LoRAs, for a work's detail (a guest cannot read the picker's list). */
  async namesOf(ids: readonly string[]): Promise<{ id: string; name: string }[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('loras').select(['id', 'name']).where('id', 'in', ids).execute();
  }

  findByName(engine: string, loraName: string): Promise<LoraRow | undefined> {
    return this.db
      .selectFrom('loras')
      .selectAll()
      .where('engine', '=', engine)
      .where('lora_name', '=', loraName)
      .executeTakeFirst();
  }

  /** Inserts unless the engine has a LoRA of that name already (two syncs at once); whether it was inserted. */
  async insert(row: Insertable<LoraTable>): Promise<boolean> {
    const result = await this.db
      .insertInto('loras')
      .values(row)
      .onConflict((oc) => oc.columns(['engine', 'lora_name']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async update(id: string, changes: Updateable<LoraTable>): Promise<void> {
    await this.db.updateTable('loras').set(changes).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('loras').where('id', '=', id).execute();
  }

  /** A LoRA without a hash takes the one a backend reported. */
  async fillHash(engine: string, loraName: string, hash: string): Promise<void> {
    await this.db
      .updateTable('loras')
      .set({ hash })
      .where('engine', '=', engine)
      .where('lora_name', '=', loraName)
      .where('hash', 'is', null)
      .execute();
  }

  /**
   * What a backend has now replaces what it had: assets it no longer reports go, the others are upserted, so two
   * syncs at once leave one row per asset.
   */
  async replaceAssets(
    backendId: string,
    assets: { kind: string; title: string; name: string; hash: string | null }[],
    at: string,
  ): Promise<void> {
    for (const asset of assets) {
      await this.db
        .insertInto('backend_assets')
        .values({ backend_id: backendId, ...asset, synced_at: at })
        .onConflict((oc) =>
          oc
            .columns(['backend_id', 'kind', 'title'])
            .doUpdateSet({ name: asset.name, hash: asset.hash, synced_at: at }),
        )
        .execute();
    }
    for (const kind of ['checkpoint', 'lora', 'vae']) {
      const titles = assets.filter((asset) => asset.kind === kind).map((asset) => asset.title);
      let gone = this.db.deleteFrom('backend_assets').where('backend_id', '=', backendId).where('kind', '=', kind);
      if (titles.length > 0) gone = gone.where('title', 'not in', titles);
      await gone.execute();
    }
    await this.db
      .insertInto('backend_syncs')
      .values({ backend_id: backendId, synced_at: at })
      .onConflict((oc) => oc.column('backend_id').doUpdateSet({ synced_at: at }))
      .execute();
  }

  /**
   * The plans a user holds: a paid order of the plan, not wholly refunded, whose credits have not expired (an order
   * without a lot granted credits for good).
   */
  async heldPlanIds(userId: string, now: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('orders')
      .leftJoin('credit_lots', (join) =>
        join.onRef('credit_lots.source_id', '=', 'orders.id').on('credit_lots.source_type', '=', 'order'),
      )
      .select('orders.plan_id')
      .where('orders.user_id', '=', userId)
      .where('orders.status', 'in', ['paid', 'partially_refunded'])
      .where((eb) =>
        eb.or([
          eb('credit_lots.id', 'is', null),
          eb.and([eb('credit_lots.expired_at', 'is', null), eb('credit_lots.expires_at', '>', now)]),
        ]),
      )
      .execute();
    return new Set(rows.map((row) => row.plan_id));
  }

  async planNames(): Promise<Map<string, string>> {
    const rows = await this.db.selectFrom('combo_plans').select(['id', 'name']).execute();
    return new Map(rows.map((row) => [row.id, row.name]));
  }
}
