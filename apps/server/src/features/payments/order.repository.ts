import type { Insertable, Selectable, Updateable } from 'kysely';
import { countRows } from '../../platform/db/count.js';
import type { Database, DbKind, Executor } from '../../platform/db/database.js';
import type { OrderRefundTable, OrderTable } from '../../platform/db/schema.js';

export type OrderRow = Selectable<OrderTable>;
export type RefundRow = Selectable<OrderRefundTable>;

/** The admin's filters as the repository takes them: days already turned into ISO instants. */
export type OrderFilter = {
  status?: string;
  channel?: string;
  userId?: string;
  userMobile?: string;
  orderId?: string;
  createdFrom?: string;
  createdBefore?: string;
  review?: boolean;
};

/** Orders, their refunds and the daily reconciliations (features/payments). */
export class OrderRepository {
  constructor(
    private readonly db: Database,
    private readonly kind: DbKind,
  ) {}

  find(id: string, trx: Executor = this.db): Promise<OrderRow | undefined> {
    return trx.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * The order, locked until the transaction ends (FOR UPDATE on PostgreSQL): notifications, checks and sweeps on
   * any process settle it one after the other. SQLite has one writer at a time anyway.
   */
  lock(id: string, trx: Executor): Promise<OrderRow | undefined> {
    let query = trx.selectFrom('orders').selectAll().where('id', '=', id);
    if (this.kind === 'postgres') query = query.forUpdate();
    return query.executeTakeFirst();
  }

  findPending(pendingKey: string, trx: Executor = this.db): Promise<OrderRow | undefined> {
    return trx.selectFrom('orders').selectAll().where('pending_key', '=', pendingKey).executeTakeFirst();
  }

  /** Inserts unless a pending order holds the same key already; whether it was inserted. */
  async insertPending(row: Insertable<OrderTable>, trx: Executor = this.db): Promise<boolean> {
    const result = await trx
      .insertInto('orders')
      .values(row)
      .onConflict((oc) => oc.column('pending_key').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async update(id: string, values: Updateable<OrderTable>, trx: Executor = this.db): Promise<void> {
    await trx.updateTable('orders').set(values).where('id', '=', id).execute();
  }

  /** Pending orders, oldest first: what the sweep asks the channels about. */
  pending(limit: number): Promise<OrderRow[]> {
    return this.db
      .selectFrom('orders')
      .selectAll()
      .where('status', '=', 'pending')
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  async pageOfUser(userId: string, status: string | undefined, current: number, pageSize: number) {
    let query = this.db.selectFrom('orders').where('user_id', '=', userId);
    if (status) query = query.where('status', '=', status);
    const [total, list] = await Promise.all([
      countRows(query),
      query
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(pageSize)
        .offset((current - 1) * pageSize)
        .execute(),
    ]);
    return { total, list };
  }

  private filtered(filter: OrderFilter) {
    let query = this.db.selectFrom('orders').leftJoin('users', 'users.id', 'orders.user_id');
    if (filter.status) query = query.where('orders.status', '=', filter.status);
    if (filter.channel) query = query.where('orders.channel', '=', filter.channel);
    if (filter.userId) query = query.where('orders.user_id', '=', filter.userId);
    if (filter.userMobile) query = query.where('users.mobile', '=', filter.userMobile);
    if (filter.orderId) {
      const id = filter.orderId;
      query = query.where((eb) => eb.or([eb('orders.id', '=', id), eb('orders.trade_no', '=', id)]));
    }
    if (filter.createdFrom) query = query.where('orders.created_at', '>=', filter.createdFrom);
    if (filter.createdBefore) query = query.where('orders.created_at', '<', filter.createdBefore);
    if (filter.review !== undefined) {
      query = query.where('orders.review', filter.review ? 'is not' : 'is', null);
    }
    return query;
  }

  private withUser(query: ReturnType<OrderRepository['filtered']>) {
    return query.selectAll('orders').select(['users.mobile as user_mobile', 'users.nickname as user_nickname']);
  }

  async adminPage(filter: OrderFilter, current: number, pageSize: number) {
    const query = this.filtered(filter);
    const [total, list] = await Promise.all([
      countRows(query),
      this.withUser(query)
        .orderBy('orders.created_at', 'desc')
        .orderBy('orders.id', 'desc')
        .limit(pageSize)
        .offset((current - 1) * pageSize)
        .execute(),
    ]);
    return { total, list };
  }

  adminRows(filter: OrderFilter, limit: number) {
    return this.withUser(this.filtered(filter)).orderBy('orders.created_at', 'desc').limit(limit).execute();
  }

  withUserOf(id: string) {
    return this.withUser(this.filtered({ orderId: id }))
      .where('orders.id', '=', id)
      .executeTakeFirst();
  }

  /** Orders paid in [from, before), or made then and not paid: what a day's reconciliation compares. */
  ofDay(from: string, before: string): Promise<OrderRow[]> {
    return this.db
      .selectFrom('orders')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb.and([eb('paid_at', '>=', from), eb('paid_at', '<', before)]),
          eb.and([eb('paid_at', 'is', null), eb('created_at', '>=', from), eb('created_at', '<', before)]),
        ]),
      )
      .orderBy('created_at')
      .execute();
  }

  refundsOf(orderId: string, trx: Executor = this.db): Promise<RefundRow[]> {
    return trx.selectFrom('order_refunds').selectAll().where('order_id', '=', orderId).orderBy('created_at').execute();
  }

  findRefund(id: string, trx: Executor = this.db): Promise<RefundRow | undefined> {
    return trx.selectFrom('order_refunds').selectAll().where('id', '=', id).executeTakeFirst();
  }

  processingRefunds(limit: number): Promise<RefundRow[]> {
    return this.db
      .selectFrom('order_refunds')
      .selectAll()
      .where('status', '=', 'processing')
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  async insertRefund(row: Insertable<OrderRefundTable>, trx: Executor): Promise<void> {
    await trx.insertInto('order_refunds').values(row).execute();
  }

  /** Moves a refund out of `from` in one conditional statement; whether this call moved it. */
  async moveRefund(
    id: string,
    from: string,
    values: Updateable<OrderRefundTable>,
    trx: Executor = this.db,
  ): Promise<boolean> {
    const result = await trx
      .updateTable('order_refunds')
      .set(values)
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  auditOf(orderId: string) {
    return this.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_type', '=', 'order')
      .where('target_id', '=', orderId)
      .orderBy('at')
      .orderBy('id')
      .execute();
  }

  findReconciliation(day: string) {
    return this.db.selectFrom('payment_reconciliations').selectAll().where('day', '=', day).executeTakeFirst();
  }

  async saveReconciliation(row: { day: string; ran_at: string; checked: number; mismatches: string }): Promise<void> {
    await this.db
      .insertInto('payment_reconciliations')
      .values(row)
      .onConflict((oc) =>
        oc.column('day').doUpdateSet({ ran_at: row.ran_at, checked: row.checked, mismatches: row.mismatches }),
      )
      .execute();
  }
}
