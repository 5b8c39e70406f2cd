import type { CreditReason, CreditSourceType } from '@huafang/contracts';
import { type PageRequest, pageRows } from '../../platform/db/count.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { newId, orderedStamps } from '../../platform/ids.js';

/** Why credits move and what moved them: written into the ledger with the change. */
export type CreditEntry = {
  reason: CreditReason;
  sourceType: CreditSourceType | null;
  sourceId: string | null;
  remark?: string | null;
};

/**
 * A user's credits (the `credits` column of users) and their ledger: every change moves the balance and writes
 * its ledger row in one transaction, so the ledger never misses a change nor lists one that was rolled back.
 */
/**
 * The time of each ledger row, from one clock for the process: one user's changes in one millisecond (sign-up and
 * a first charge, a charge and its refund) still list in the order they happened.
 */
export const ledgerStamp = orderedStamps();

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
