import {
  BizCode,
  type CreditLedgerPage,
  type CreditLedgerQuery,
  type CreditReason,
  creditLedgerQuerySchema,
} from '@huafang/contracts';
import type { Executor } from '../../platform/db/database.js';
import { BizError, notFound } from '../../platform/errors.js';
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
  reason: CreditReason;
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
 * A user's credits: reserved when a job is submitted, given back for what a job did not produce, granted by admins,
 * bought with a plan. Every change goes into the ledger (算力明细) with its reason and source.
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
  /** Takes `cost` in one statement so two submits cannot both spend the same credits; 10004 when short. */
  async reserve(userId: string, cost: number, jobId: string, trx?: Executor): Promise<CreditChange> {
    const balance = await this.repos.credits.take(userId, cost, { reason: 'charge', ...ofJob(jobId) }, trx);
    if (balance === undefined) throw quotaExhausted(cost, await this.balance(userId, trx));
    return { userId, delta: -cost, balance, reason: 'charge', ref: { jobId } };
  }

  async refund(userId: string, amount: number, jobId: string, trx?: Executor): Promise<CreditChange | null> {
    if (amount <= 0) return null;
    const balance = await this.repos.credits.add(userId, amount, { reason: 'refund', ...ofJob(jobId) }, trx);
    return balance === undefined ? null : { userId, delta: amount, balance, reason: 'refund', ref: { jobId } };
  }

  /** The credits of a paid plan order, inside the transaction that marks it paid. */
  async creditOrder(userId: string, credits: number, orderId: string, trx: Executor): Promise<CreditChange> {
    const balance = await this.repos.credits.add(userId, credits, { reason: 'plan', ...ofOrder(orderId) }, trx);
    if (balance === undefined) throw notFound('用户不存在');
    return { userId, delta: credits, balance, reason: 'plan', ref: { orderId } };
  }

  /**
   * Takes back what a refunded order granted, as far as the user still has it (never below zero), inside the
   * refund's transaction; the change's delta says how many were taken.
   */
  async takeBackForRefund(userId: string, credits: number, orderId: string, trx: Executor): Promise<CreditChange> {
    const { credits: repo } = this.repos;
    await this.repos.generations.lockUser(userId, trx);
    const current = await repo.balance(userId, trx);
    if (current === undefined) throw notFound('用户不存在');
    const taken = Math.min(credits, current);
    if (taken <= 0) return { userId, delta: 0, balance: current, reason: 'plan_refund', ref: { orderId } };
    const balance = await repo.add(userId, -taken, { reason: 'plan_refund', ...ofOrder(orderId) }, trx);
    return { userId, delta: -taken, balance: balance ?? current - taken, reason: 'plan_refund', ref: { orderId } };
  }

  /**
   * Gives back what a refund took back when the channel reports the refund failed (the buyer keeps the money's
   * worth), inside the transaction that settles the refund.
   */
  async returnAfterFailedRefund(
    userId: string,
    credits: number,
    orderId: string,
    trx: Executor,
  ): Promise<CreditChange> {
    const balance = await this.repos.credits.add(
      userId,
      credits,
      { reason: 'refund_failed', ...ofOrder(orderId) },
      trx,
    );
    if (balance === undefined) throw notFound('用户不存在');
    return { userId, delta: credits, balance, reason: 'refund_failed', ref: { orderId } };
  }

  /** Admin grant (a negative amount takes credits back, never below zero); every grant is recorded. */
  async grant(adminId: string, userId: string, amount: number, origin: AuditOrigin, remark?: string): Promise<number> {
    const { credits } = this.repos;
    const { applied, balance } = await this.repos.transaction(async (trx) => {
      await this.repos.generations.lockUser(userId, trx);
      const current = await credits.balance(userId, trx);
      if (current === undefined) throw notFound('用户不存在');
      const applied = Math.max(amount, -current);
      if (applied === 0) return { applied, balance: current };
      const entry = {
        reason: 'grant' as const,
        sourceType: 'admin' as const,
        sourceId: adminId,
        remark: remark ?? null,
      };
      return { applied, balance: (await credits.add(userId, applied, entry, trx)) ?? current + applied };
    });
    this.recorded(
      { userId, delta: applied, balance, reason: 'grant', ref: { grantedBy: adminId, remark: remark ?? null } },
      origin,
    );
    return balance;
  }

  /** 算力明细: the user's own changes, newest first, and the balance now. */
  async ledger(userId: string, query: CreditLedgerQuery): Promise<CreditLedgerPage> {
    const page = creditLedgerQuerySchema.parse(query);
    const { rows, total } = await this.repos.credits.ledgerPage(userId, page);
    return {
      list: rows.map((row) => ({
        id: row.id,
        delta: row.delta,
        balance: row.balance,
        reason: row.reason,
        sourceType: row.source_type,
        sourceId: row.source_id,
        detail: row.template_name ? `${row.template_name} · 第 ${row.step_num} 步` : row.remark,
        createdAt: row.created_at,
      })),
      ...page,
      total,
      credits: await this.balance(userId),
    };
  }
}

const ofJob = (jobId: string) => ({ sourceType: 'job' as const, sourceId: jobId });
const ofOrder = (orderId: string) => ({ sourceType: 'order' as const, sourceId: orderId });
