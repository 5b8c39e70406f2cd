import type { CreditReason, CreditSourceType } from '@huafang/contracts';
import { type PageRequest, pageRows } from '../../platform/db/count.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { newId, orderedStamps } from '../../platform/ids.js';
import type { Drawn, Portion, SpendableLot } from './credit-lots.js';

/** Why credits move and what moved them: written into the ledger with the change. */
export type CreditEntry = {
  reason: CreditReason;
  sourceType: CreditSourceType | null;
  sourceId: string | null;
  remark?: string | null;
};

/** A lot the sweep is to expire, with the name of the plan that granted it. */
export type DueLot = { id: string; user_id: string; source_type: string; source_id: string; plan_name: string | null };

/**
 * The time of each ledger row, from one clock for the process: one user's changes in one millisecond (sign-up and
 * a first charge, a charge and its refund) still list in the order they happened.
 */
export const ledgerStamp = orderedStamps();

/**
 * A user's credits (the `credits` column of users) and their ledger: every change moves the balance and writes
 * its ledger row in one transaction, so the ledger never misses a change nor lists one that was rolled back. Lots
 * of expiring credits (credit_lots) and what charges drew from them (credit_draws) change in the same transactions,
 * under the user's lock.
 */
export class CreditRepository {
  constructor(private readonly db: Database) {}

  async balance(userId: string, trx: Executor = this.db): Promise<number | undefined> {
    const row = await trx.selectFrom('users').select('credits').where('id', '=', userId).executeTakeFirst();
    return row?.credits;
  }

  /** Takes `cost` in one conditional statement, so two takes cannot spend the same credits; undefined when short. */
  take(userId: string, cost: number, entry: CreditEntry, trx: Executor = this.db): Promise<number | undefined> {
    return this.move(userId, -cost, entry, trx, cost);
  }

  /** Adds `amount` (negative to take back); the new balance, undefined when there is no such user. */
  add(userId: string, amount: number, entry: CreditEntry, trx: Executor = this.db): Promise<number | undefined> {
    return this.move(userId, amount, entry, trx);
  }

  /** The user's ledger, newest first, with what each change was for. */
  async ledgerPage(userId: string, page: PageRequest) {
    return pageRows(this.db.selectFrom('credit_ledger').where('credit_ledger.user_id', '=', userId), page, (q) =>
      q
        .leftJoin('generation_jobs', (join) =>
          join.onRef('generation_jobs.id', '=', 'credit_ledger.source_id').on('credit_ledger.source_type', '=', 'job'),
        )
        .leftJoin('generations', 'generations.id', 'generation_jobs.generation_id')
        .select([
          'credit_ledger.id',
          'credit_ledger.delta',
          'credit_ledger.balance',
          'credit_ledger.reason',
          'credit_ledger.source_type',
          'credit_ledger.source_id',
          'credit_ledger.remark',
          'credit_ledger.created_at',
          'generations.template_name',
          'generation_jobs.step_num',
        ])
        .orderBy('credit_ledger.created_at', 'desc')
        .orderBy('credit_ledger.id', 'desc'),
    );
  }

  /** The user's lots still counted in the balance (due ones the sweep has not reached included). */
  async liveLots(userId: string, trx: Executor): Promise<SpendableLot[]> {
    const rows = await trx
      .selectFrom('credit_lots')
      .select(['id', 'remaining', 'expires_at'])
      .where('user_id', '=', userId)
      .where('expired_at', 'is', null)
      .where('remaining', '>', 0)
      .execute();
    return rows.map((row) => ({ id: row.id, remaining: row.remaining, expiresAt: row.expires_at }));
  }

  /** The lot an order granted, if its plan had a validity. */
  lotOf(sourceType: CreditSourceType, sourceId: string, trx: Executor = this.db) {
    return trx
      .selectFrom('credit_lots')
      .selectAll()
      .where('source_type', '=', sourceType)
      .where('source_id', '=', sourceId)
      .executeTakeFirst();
  }

  async insertLot(
    lot: { userId: string; sourceType: CreditSourceType; sourceId: string; amount: number; expiresAt: string },
    trx: Executor,
  ): Promise<void> {
    await trx
      .insertInto('credit_lots')
      .values({
        id: newId(),
        user_id: lot.userId,
        source_type: lot.sourceType,
        source_id: lot.sourceId,
        amount: lot.amount,
        remaining: lot.amount,
        expires_at: lot.expiresAt,
        expired_at: null,
        created_at: ledgerStamp(),
      })
      .execute();
  }

  async takeFromLot(lotId: string, amount: number, trx: Executor): Promise<void> {
    await trx
      .updateTable('credit_lots')
      .set((eb) => ({ remaining: eb('remaining', '-', amount) }))
      .where('id', '=', lotId)
      .execute();
  }

  /** Puts credits back into a lot; one already expired counts again, so the next sweep takes them off. */
  async returnToLot(lotId: string, amount: number, trx: Executor): Promise<void> {
    await trx
      .updateTable('credit_lots')
      .set((eb) => ({ remaining: eb('remaining', '+', amount), expired_at: null }))
      .where('id', '=', lotId)
      .execute();
  }

  async insertDraws(jobId: string, portions: Portion[], trx: Executor): Promise<void> {
    await trx
      .insertInto('credit_draws')
      .values(portions.map((p) => ({ id: newId(), job_id: jobId, lot_id: p.lotId, amount: p.amount })))
      .execute();
  }

  /** What a job's charge drew and has not had back, with when each lot expires; empty: all from permanent credits. */
  async drawsOf(jobId: string, trx: Executor): Promise<(Drawn & { id: string })[]> {
    const rows = await trx
      .selectFrom('credit_draws')
      .leftJoin('credit_lots', 'credit_lots.id', 'credit_draws.lot_id')
      .select(['credit_draws.id', 'credit_draws.lot_id', 'credit_draws.amount', 'credit_lots.expires_at'])
      .where('credit_draws.job_id', '=', jobId)
      .where('credit_draws.amount', '>', 0)
      .execute();
    return rows.map((row) => ({ id: row.id, lotId: row.lot_id, amount: row.amount, expiresAt: row.expires_at }));
  }

  async reduceDraw(drawId: string, amount: number, trx: Executor): Promise<void> {
    await trx
      .updateTable('credit_draws')
      .set((eb) => ({ amount: eb('amount', '-', amount) }))
      .where('id', '=', drawId)
      .execute();
  }

  /** Lots past their expiry that still count in a balance, soonest first: the sweep's work. */
  dueLots(now: string, limit: number): Promise<DueLot[]> {
    return this.db
      .selectFrom('credit_lots')
      .leftJoin('orders', (join) =>
        join.onRef('orders.id', '=', 'credit_lots.source_id').on('credit_lots.source_type', '=', 'order'),
      )
      .select([
        'credit_lots.id',
        'credit_lots.user_id',
        'credit_lots.source_type',
        'credit_lots.source_id',
        'orders.plan_name',
      ])
      .where('credit_lots.expired_at', 'is', null)
      .where('credit_lots.expires_at', '<=', now)
      .orderBy('credit_lots.expires_at')
      .orderBy('credit_lots.id')
      .limit(limit)
      .execute();
  }

  /**
   * Marks a due lot expired and answers what was left of it: the read and the conditional update run under the
   * user's lock the caller holds, so of two sweeps only the first finds it and `remaining` cannot move meanwhile.
   * Undefined when it is not due or already expired.
   */
  async expireLot(lotId: string, now: string, trx: Executor): Promise<number | undefined> {
    const lot = await trx
      .selectFrom('credit_lots')
      .select('remaining')
      .where('id', '=', lotId)
      .where('expired_at', 'is', null)
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    if (!lot) return undefined;
    const result = await trx
      .updateTable('credit_lots')
      .set({ remaining: 0, expired_at: now })
      .where('id', '=', lotId)
      .where('expired_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? lot.remaining : undefined;
  }

  /** The lot of the user's that expires next with credits left, for 「N 算力将于 … 过期」. */
  nextExpiring(userId: string, now: string) {
    return this.db
      .selectFrom('credit_lots')
      .select(['remaining', 'expires_at'])
      .where('user_id', '=', userId)
      .where('expired_at', 'is', null)
      .where('remaining', '>', 0)
      .where('expires_at', '>', now)
      .orderBy('expires_at')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * Moves the balance by `amount` in one statement, only when it holds at least `atLeast`, and writes the ledger
   * row in the same transaction (one of its own when the caller has none); the new balance.
   */
  private async move(
    userId: string,
    amount: number,
    entry: CreditEntry,
    trx: Executor,
    atLeast?: number,
  ): Promise<number | undefined> {
    if (!trx.isTransaction)
      return this.db.transaction().execute((own) => this.move(userId, amount, entry, own, atLeast));
    let query = trx
      .updateTable('users')
      .set((eb) => ({ credits: eb('credits', '+', amount) }))
      .where('id', '=', userId);
    if (atLeast !== undefined) query = query.where('credits', '>=', atLeast);
    const row = await query.returning('credits').executeTakeFirst();
    if (!row) return undefined;
    await trx
      .insertInto('credit_ledger')
      .values({
        id: newId(),
        user_id: userId,
        delta: amount,
        balance: row.credits,
        reason: entry.reason,
        source_type: entry.sourceType,
        source_id: entry.sourceId,
        remark: entry.remark ?? null,
        created_at: ledgerStamp(),
      })
      .execute();
    return row.credits;
  }
}
