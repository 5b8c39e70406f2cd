import type { Insertable, Selectable, Updateable } from 'kysely';
import { countRows, type PageRequest, pageRows } from '../../platform/db/count.js';
import type { Database, DbKind, Executor } from '../../platform/db/database.js';
import type { WebhookAttemptTable, WebhookDeliveryTable, WebhookEndpointTable } from '../../platform/db/schema.js';

export type WebhookEndpointRow = Selectable<WebhookEndpointTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptTable>;

/** A delivery a sender holds: what to send and where. */
export type ClaimedDelivery = WebhookDeliveryRow & { url: string; secret: string; enabled: number };

export class WebhookRepository {
  constructor(
    private readonly db: Database,
    private readonly dbKind: DbKind,
  ) {}

  listOwned(userId: string): Promise<WebhookEndpointRow[]> {
    return this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  findOwned(userId: string, id: string): Promise<WebhookEndpointRow | undefined> {
    return this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** Inserts while the user has fewer than `max` endpoints (the user's row locked on PostgreSQL, as for API keys). */
  insertWithin(row: Insertable<WebhookEndpointTable>, max: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if (this.dbKind === 'postgres') {
        await trx.selectFrom('users').select('id').where('id', '=', row.user_id).forUpdate().execute();
      }
      if ((await countRows(trx.selectFrom('webhook_endpoints').where('user_id', '=', row.user_id))) >= max)
        return false;
      await trx.insertInto('webhook_endpoints').values(row).execute();
      return true;
    });
  }

  async update(id: string, values: Updateable<WebhookEndpointTable>): Promise<void> {
    await this.db.updateTable('webhook_endpoints').set(values).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
  }

  /** Enabled endpoints that may hear of this user's events: the user's own and admins' all-users endpoints. */
  listenersOf(userId: string, trx: Executor = this.db): Promise<WebhookEndpointRow[]> {
    return trx
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('enabled', '=', 1)
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('all_users', '=', 1)]))
      .execute();
  }

  /** The images a job kept, read in the transaction that settles it. */
  worksOfJob(jobId: string, trx: Executor = this.db) {
    return trx
      .selectFrom('works')
      .select(['id', 'width', 'height', 'seed'])
      .where('job_id', '=', jobId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async insertDeliveries(rows: Insertable<WebhookDeliveryTable>[], trx: Executor = this.db): Promise<void> {
    if (rows.length > 0) await trx.insertInto('webhook_deliveries').values(rows).execute();
  }

  /** Deliveries due now, oldest first, as candidates for {@link claim}; none to the endpoints in `skip`. */
  due(now: string, limit: number, skip: string[] = []) {
    let query = this.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'endpoint_id', 'next_attempt_at'])
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now);
    if (skip.length > 0) query = query.where('endpoint_id', 'not in', skip);
    return query.orderBy('next_attempt_at').limit(limit).execute();
  }

  /**
   * Takes a due delivery for one try: one conditional statement moves its due time to `leaseUntil` and counts the
   * try, so of several senders only the one whose statement finds it unchanged gets it. A sender that dies holding
   * it leaves it due again at `leaseUntil`.
   */
  async claim(id: string, dueAt: string, leaseUntil: string): Promise<ClaimedDelivery | undefined> {
    const claimed = await this.db
      .updateTable('webhook_deliveries')
      .set((eb) => ({ next_attempt_at: leaseUntil, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '=', dueAt)
      .returningAll()
      .executeTakeFirst();
    if (!claimed) return undefined;
    const endpoint = await this.db
      .selectFrom('webhook_endpoints')
      .select(['url', 'secret', 'enabled'])
      .where('id', '=', claimed.endpoint_id)
      .executeTakeFirst();
    return endpoint ? { ...claimed, ...endpoint } : undefined;
  }

  /** Records a try and the delivery's new state, while the sender still holds it (its lease unchanged). */
  async settle(
    delivery: { id: string; leaseUntil: string },
    attempt: Insertable<WebhookAttemptTable>,
    state: { status: string; next_attempt_at: string | null },
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const held = await trx
        .updateTable('webhook_deliveries')
        .set(state)
        .where('id', '=', delivery.id)
        .where('next_attempt_at', '=', delivery.leaseUntil)
        .executeTakeFirst();
      if (Number(held.numUpdatedRows) === 1) await trx.insertInto('webhook_attempts').values(attempt).execute();
    });
  }

  pageDeliveries(endpointId: string, page: PageRequest) {
    return pageRows(
      this.db.selectFrom('webhook_deliveries').where('endpoint_id', '=', endpointId),
      page,
      (deliveries) => deliveries.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
    );
  }

  attemptsOf(deliveryIds: string[]): Promise<WebhookAttemptRow[]> {
    if (deliveryIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('delivery_id', 'in', deliveryIds)
      .orderBy('attempt')
      .execute();
  }
}
