import { BizCode } from '@huafang/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/database.js';
import type { DB } from '../../platform/db/schema.js';
import { BizError, notFound } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';

type Executor = Kysely<DB>;

/** The 10004 answer of spec §8: the draw page opens the quota notice with this message. */
export function quotaExhausted(cost: number, credits: number): BizError {
  return new BizError(
    BizCode.QUOTA_EXHAUSTED,
    `算力不足：本次生成需要 ${cost} 点，当前剩余 ${credits} 点。请前往套餐商店了解套餐，或联系管理员充值。`,
  );
}

/** A user's credits: reserved when a job is submitted, given back for what a job did not produce. */
export class CreditService {
  constructor(private readonly db: Database) {}

  async balance(userId: string, executor: Executor = this.db): Promise<number> {
    const row = await executor.selectFrom('users').select('credits').where('id', '=', userId).executeTakeFirst();
    return row?.credits ?? 0;
  }

  /** Takes `cost` in one statement so two submits cannot both spend the same credits; 10004 when short. */
  async reserve(executor: Executor, userId: string, cost: number): Promise<void> {
    const result = await executor
      .updateTable('users')
      .set((eb) => ({ credits: eb('credits', '-', cost) }))
      .where('id', '=', userId)
      .where('credits', '>=', cost)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw quotaExhausted(cost, await this.balance(userId, executor));
  }

  async refund(executor: Executor, userId: string, amount: number): Promise<void> {
    if (amount <= 0) return;
    await executor
      .updateTable('users')
      .set((eb) => ({ credits: eb('credits', '+', amount) }))
      .where('id', '=', userId)
      .execute();
  }

  /** Admin grant (a negative amount takes credits back, never below zero); every grant is recorded. */
  async grant(adminId: string, userId: string, amount: number, remark?: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('users').select('credits').where('id', '=', userId).executeTakeFirst();
      if (!current) throw notFound('用户不存在');
      const applied = Math.max(amount, -current.credits);
      await trx
        .updateTable('users')
        .set((eb) => ({ credits: eb('credits', '+', applied) }))
        .where('id', '=', userId)
        .execute();
      await trx
        .insertInto('credit_grants')
        .values({
          id: newId(),
          user_id: userId,
          amount: applied,
          remark: remark ?? null,
          granted_by: adminId,
          created_at: nowIso(),
        })
        .execute();
      return current.credits + applied;
    });
  }
}
