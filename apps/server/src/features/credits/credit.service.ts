import { BizCode } from '@huafang/contracts';
import type { Executor } from '../../platform/db/database.js';
import { BizError, notFound } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import type { Repositories } from '../../repositories.js';
import type { AuditOrigin, AuditRecorder } from '../audit/audit-recorder.js';

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

/**
 * A user's credits: reserved when a job is submitted, given back for what a job did not produce, granted by admins.
 * `reserve` and `refund` run inside the generation's own transaction, so they take it first and always.
 */
export class CreditService {
  constructor(
    private readonly repos: Repositories,
    private readonly audit: AuditRecorder,
  ) {}

  /** Every change goes into the trail as credits.change: the holder is the actor, whoever caused it. */
  recorded(change: CreditChange | null, origin: AuditOrigin): void {
    if (!change) return;
    const { userId, ...detail } = change;
    this.audit.record({ action: 'credits.change', userId, origin, target: { type: 'user', id: userId }, detail });
  }

  async balance(userId: string, trx?: Executor): Promise<number> {
    return (await this.repos.credits.balance(userId, trx)) ?? 0;
  }

  /** Takes `cost` in one statement so two submits cannot both spend the same credits; 10004 when short. */
  async reserve(userId: string, cost: number, jobId: string, trx?: Executor): Promise<CreditChange> {
    const balance = await this.repos.credits.take(userId, cost, trx);
    if (balance === undefined) throw quotaExhausted(cost, await this.balance(userId, trx));
    return { userId, delta: -cost, balance, reason: 'charge', ref: { jobId } };
  }

  async refund(userId: string, amount: number, jobId: string, trx?: Executor): Promise<CreditChange | null> {
    if (amount <= 0) return null;
    const balance = await this.repos.credits.add(userId, amount, trx);
    return balance === undefined ? null : { userId, delta: amount, balance, reason: 'refund', ref: { jobId } };
  }

  /** Admin grant (a negative amount takes credits back, never below zero); every grant is recorded. */
  async grant(adminId: string, userId: string, amount: number, origin: AuditOrigin, remark?: string): Promise<number> {
    const { credits } = this.repos;
    const { applied, balance } = await this.repos.transaction(async (trx) => {
      const current = await credits.balance(userId, trx);
      if (current === undefined) throw notFound('用户不存在');
      const applied = Math.max(amount, -current);
      await credits.add(userId, applied, trx);
      await credits.insertGrant(
        {
          id: newId(),
          user_id: userId,
          amount: applied,
          remark: remark ?? null,
          granted_by: adminId,
          created_at: nowIso(),
        },
        trx,
      );
      return { applied, balance: current + applied };
    });
    this.recorded(
      { userId, delta: applied, balance, reason: 'grant', ref: { grantedBy: adminId, remark: remark ?? null } },
      origin,
    );
    return balance;
  }
}
