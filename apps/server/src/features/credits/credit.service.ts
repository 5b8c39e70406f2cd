import { BizCode } from '@huafang/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/database.js';
import type { DB } from '../../platform/db/schema.js';
import { BizError, notFound } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import type { AuditOrigin, AuditRecorder } from '../audit/audit-recorder.js';

type Executor = Kysely<DB>;

/**
 * A change of one user's credits, for the audit trail: made inside the caller's transaction, recorded by the caller
 * through `CreditService.recorded` once that transaction has committed, so a rolled-back change leaves no entry.
 */
export type CreditChange = {
  userId: string;
  delta: number;
  balance: number;
  reason: 'charge' | 'refund' | 'grant';
  /** What it was for: the generation job, or the admin who granted. */
  ref: Record<string, string | null>;
};

/** The 10004 answer of spec §8: the draw page opens the quota notice with this message. */
export function quotaExhausted(cost: number, credits: number): BizError {
  return new BizError(
    BizCode.QUOTA_EXHAUSTED,
    `算力不足：本次生成需要 ${cost} 点，当前剩余 ${credits} 点。请前往套餐商店了解套餐，或联系管理员充值。`,
  );
}

/** A user's credits: reserved when a job is submitted, given back for what a job did not produce. */
export class CreditService {
  constructor(
    private readonly db: Database,
    private readonly audit: AuditRecorder,
  ) {}

  /** Every change goes into the trail as credits.change: the holder is the actor, whoever caused it. */
  recorded(change: CreditChange | null, origin: AuditOrigin): void {
    if (!change) return;
    const { userId, ...detail } = change;
    this.audit.record({ action: 'credits.change', userId, origin, target: { type: 'user', id: userId }, detail });
  }

  async balance(userId: string, executor: Executor = this.db): Promise<number> {
    const row = await executor.selectFrom('users').select('credits').where('id', '=', userId).executeTakeFirst();
    return row?.credits ?? 0;
  }

  /** Takes `cost` in one statement so two submits cannot both spend the same credits; 10004 when short. */
  async reserve(executor: Executor, userId: string, cost: number, jobId: string): Promise<CreditChange> {
    const row = await executor
      .updateTable('users')
      .set((eb) => ({ credits: eb('credits', '-', cost) }))
      .where('id', '=', userId)
      .where('credits', '>=', cost)
      .returning('credits')
      .executeTakeFirst();
    if (!row) throw quotaExhausted(cost, await this.balance(userId, executor));
    return { userId, delta: -cost, balance: row.credits, reason: 'charge', ref: { jobId } };
  }

  async refund(executor: Executor, userId: string, amount: number, jobId: string): Promise<CreditChange | null> {
    if (amount <= 0) return null;
    const row = await executor
      .updateTable('users')
      .set((eb) => ({ credits: eb('credits', '+', amount) }))
      .where('id', '=', userId)
      .returning('credits')
      .executeTakeFirst();
    return row ? { userId, delta: amount, balance: row.credits, reason: 'refund', ref: { jobId } } : null;
  }

  /** Admin grant (a negative amount takes credits back, never below zero); every grant is recorded. */
  async grant(adminId: string, userId: string, amount: number, origin: AuditOrigin, remark?: string): Promise<number> {
    const { applied, balance } = await this.db.transaction().execute(async (trx) => {
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
      return { applied, balance: current.credits + applied };
    });
    this.recorded(
      { userId, delta: applied, balance, reason: 'grant', ref: { grantedBy: adminId, remark: remark ?? null } },
      origin,
    );
    return balance;
  }
}
