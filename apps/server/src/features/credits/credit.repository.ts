import type { Insertable } from 'kysely';
import type { Database, Executor } from '../../platform/db/database.js';
import type { CreditGrantTable } from '../../platform/db/schema.js';

/** A user's credits (the `credits` column of users) and the admins' grants. */
export class CreditRepository {
  constructor(private readonly db: Database) {}

  async balance(userId: string, trx: Executor = this.db): Promise<number | undefined> {
    const row = await trx.selectFrom('users').select('credits').where('id', '=', userId).executeTakeFirst();
    return row?.credits;
  }

  /** Takes `cost` in one conditional statement, so two takes cannot spend the same credits; undefined when short. */
  take(userId: string, cost: number, trx: Executor = this.db): Promise<number | undefined> {
    return this.move(userId, -cost, trx, cost);
  }

  /** Adds `amount` (negative to take back); the new balance, undefined when there is no such user. */
  add(userId: string, amount: number, trx: Executor = this.db): Promise<number | undefined> {
    return this.move(userId, amount, trx);
  }

  /** Moves the balance by `amount` in one statement, only when it holds at least `atLeast`; the new balance. */
  private async move(userId: string, amount: number, trx: Executor, atLeast?: number): Promise<number | undefined> {
    let query = trx
      .updateTable('users')
      .set((eb) => ({ credits: eb('credits', '+', amount) }))
      .where('id', '=', userId);
    if (atLeast !== undefined) query = query.where('credits', '>=', atLeast);
    const row = await query.returning('credits').executeTakeFirst();
    return row?.credits;
  }

  async insertGrant(row: Insertable<CreditGrantTable>, trx: Executor = this.db): Promise<void> {
    await trx.insertInto('credit_grants').values(row).execute();
  }
}
