import {
  BizCode,
  type CreditLedgerPage,
  type CreditLedgerQuery,
  type CreditReason,
  type CreditSourceType,
  creditLedgerQuerySchema,
} from '@huafang/contracts';
import type { Executor } from '../../platform/db/database.js';
import { BizError, notFound } from '../../platform/errors.js';
import { nowIso } from '../../platform/ids.js';
import type { Repositories } from '../../repositories.js';
import type { AuditOrigin, AuditRecorder } from '../audit/audit-recorder.js';
import { giveBack, spend } from './credit-lots.js';

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
 * bought with a plan, expired when a plan's validity ends. Every change goes into the ledger (算力明细) with its
 * reason and source; credits that expire are tracked in lots (credit-lots.ts), changed in the same transaction.
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

  /**
   * Holds the user's row to the end of the transaction: every change of one user's credits and lots (charges,
   * refunds, orders, the expiry sweep) runs one after another on any number of processes.
   */
  private lock(userId: string, trx: Executor): Promise<void> {
    return this.repos.generations.lockUser(userId, trx);
  }

  private inTransaction<T>(trx: Executor | undefined, work: (trx: Executor) => Promise<T>): Promise<T> {
    return trx?.isTransaction ? work(trx) : this.repos.transaction(work);
  }

  /**
   * After the balance fell by `amount`, takes it out of the lots expiring soonest (permanent credits last); for a
   * job's charge, notes where it came from so a refund gives it back there.
   */
  private async spendLots(userId: string, amount: number, trx: Executor, jobId?: string): Promise<void> {
    const { credits: repo } = this.repos;
    const lots = await repo.liveLots(userId, trx);
    if (lots.length === 0) return;
    const portions = spend(lots, amount);
    for (const portion of portions) {
      if (portion.lotId) await repo.takeFromLot(portion.lotId, portion.amount, trx);
    }
    if (jobId) await repo.insertDraws(jobId, portions, trx);
  }

  /** Permanent credits: the balance beyond what the lots still hold. */
  private async permanent(userId: string, balance: number, trx: Executor): Promise<number> {
    const lots = await this.repos.credits.liveLots(userId, trx);
    return balance - lots.reduce((sum, lot) => sum + lot.remaining, 0);
  }

  /** Takes `cost` in one statement so two submits cannot both spend the same credits; 10004 when short. */
  async reserve(userId: string, cost: number, jobId: string, trx?: Executor): Promise<CreditChange> {
    return this.inTransaction(trx, async (own) => {
      await this.lock(userId, own);
      const balance = await this.repos.credits.take(userId, cost, { reason: 'charge', ...ofJob(jobId) }, own);
      if (balance === undefined) throw quotaExhausted(cost, await this.balance(userId, own));
      await this.spendLots(userId, cost, own, jobId);
      return { userId, delta: -cost, balance, reason: 'charge' as const, ref: { jobId } };
    });
  }

  /**
   * Gives back what a job did not produce, into the lots its charge drew from (see giveBack: permanent credits first,
   * then the lot expiring latest); credits whose lot has expired meanwhile come back and go again at the next sweep.
   */
  async refund(userId: string, amount: number, jobId: string, trx?: Executor): Promise<CreditChange | null> {
    if (amount <= 0) return null;
    return this.inTransaction(trx, async (own) => {
      const { credits: repo } = this.repos;
      await this.lock(userId, own);
      const balance = await repo.add(userId, amount, { reason: 'refund', ...ofJob(jobId) }, own);
      if (balance === undefined) return null;
      const { back } = giveBack(await repo.drawsOf(jobId, own), amount);
      for (const { draw, amount: given } of back) {
        if (draw.lotId) await repo.returnToLot(draw.lotId, given, own);
        await repo.reduceDraw(draw.id, given, own);
      }
      return { userId, delta: amount, balance, reason: 'refund' as const, ref: { jobId } };
    });
  }

  /**
   * The credits of a paid plan order, inside the transaction that marks it paid; with `expiresAt` (the plan has a
   * validity) they form the order's lot, taken off by the sweep at that time.
   */
  async creditOrder(
    userId: string,
    credits: number,
    orderId: string,
    trx: Executor,
    expiresAt: string | null = null,
  ): Promise<CreditChange> {
    await this.lock(userId, trx);
    const balance = await this.repos.credits.add(userId, credits, { reason: 'plan', ...ofOrder(orderId) }, trx);
    if (balance === undefined) throw notFound('用户不存在');
    if (expiresAt) {
      await this.repos.credits.insertLot(
        { userId, sourceType: 'order', sourceId: orderId, amount: credits, expiresAt },
        trx,
      );
    }
    return { userId, delta: credits, balance, reason: 'plan', ref: { orderId } };
  }

  /**
   * How many credits of an order a refund could still take back: what is left of its lot, or for an order without
   * validity the user's permanent credits.
   */
  async takeableForRefund(userId: string, orderId: string, trx?: Executor): Promise<number> {
    return this.inTransaction(trx, async (own) => {
      const lot = await this.repos.credits.lotOf('order', orderId, own);
      if (lot) return lot.remaining;
      return Math.max(await this.permanent(userId, await this.balance(userId, own), own), 0);
    });
  }

  /**
   * Takes back what a refunded order granted, as far as the user still has it, inside the refund's transaction: from
   * the order's own lot when its plan had a validity (what expired or was spent is gone), otherwise from permanent
   * credits (never below zero). The change's delta says how many were taken.
   */
  async takeBackForRefund(userId: string, credits: number, orderId: string, trx: Executor): Promise<CreditChange> {
    const { credits: repo } = this.repos;
    await this.lock(userId, trx);
    const current = await repo.balance(userId, trx);
    if (current === undefined) throw notFound('用户不存在');
    const taken = Math.min(credits, current, await this.takeableForRefund(userId, orderId, trx));
    if (taken <= 0) return { userId, delta: 0, balance: current, reason: 'plan_refund', ref: { orderId } };
    const lot = await repo.lotOf('order', orderId, trx);
    if (lot) await repo.takeFromLot(lot.id, taken, trx);
    const balance = await repo.add(userId, -taken, { reason: 'plan_refund', ...ofOrder(orderId) }, trx);
    return { userId, delta: -taken, balance: balance ?? current - taken, reason: 'plan_refund', ref: { orderId } };
  }

  /**
   * Gives back what a refund took back when the channel reports the refund failed (the buyer keeps the money's
   * worth), inside the transaction that settles the refund; into the order's lot when it has one.
   */
  async returnAfterFailedRefund(
    userId: string,
    credits: number,
    orderId: string,
    trx: Executor,
  ): Promise<CreditChange> {
    await this.lock(userId, trx);
    const balance = await this.repos.credits.add(
      userId,
      credits,
      { reason: 'refund_failed', ...ofOrder(orderId) },
      trx,
    );
    if (balance === undefined) throw notFound('用户不存在');
    const lot = await this.repos.credits.lotOf('order', orderId, trx);
    if (lot) await this.repos.credits.returnToLot(lot.id, credits, trx);
    return { userId, delta: credits, balance, reason: 'refund_failed', ref: { orderId } };
  }

  /**
   * The expiry sweep (every minute, one process per tick): takes what is left of each lot past its expiry off the
   * balance with an 算力过期 entry naming the order. Each lot in its own transaction under the user's lock, marked
   * expired in a conditional statement, so sweeps running together, and charges racing them, expire it once.
   * Works through `limit` lots a run; the next run goes on. Answers how many lots it expired.
   */
  async expireDue(now = new Date(), limit = 500): Promise<number> {
    const { credits: repo } = this.repos;
    const at = now.toISOString();
    let expired = 0;
    for (const lot of await repo.dueLots(at, limit)) {
      const change = await this.repos.transaction(async (trx): Promise<CreditChange | null | undefined> => {
        await this.lock(lot.user_id, trx);
        const left = await repo.expireLot(lot.id, at, trx);
        if (left === undefined) return undefined;
        const current = (await repo.balance(lot.user_id, trx)) ?? 0;
        const taken = Math.min(left, current);
        if (taken <= 0) return null;
        const entry = {
          reason: 'expire' as const,
          sourceType: lot.source_type as CreditSourceType,
          sourceId: lot.source_id,
          remark: lot.plan_name,
        };
        const balance = (await repo.add(lot.user_id, -taken, entry, trx)) ?? current - taken;
        return { userId: lot.user_id, delta: -taken, balance, reason: 'expire', ref: { orderId: lot.source_id } };
      });
      if (change === undefined) continue;
      expired += 1;
      this.recorded(change, { ip: null, apiKeyId: null });
    }
    return expired;
  }

  /**
   * Admin grant (a negative amount takes credits back, never below zero, spending like a charge: the lots expiring
   * soonest first); credits granted are permanent. Every grant is recorded.
   */
  async grant(adminId: string, userId: string, amount: number, origin: AuditOrigin, remark?: string): Promise<number> {
    const { credits } = this.repos;
    const { applied, balance } = await this.repos.transaction(async (trx) => {
      await this.lock(userId, trx);
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
      const balance = (await credits.add(userId, applied, entry, trx)) ?? current + applied;
      if (applied < 0) await this.spendLots(userId, -applied, trx);
      return { applied, balance };
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
    const [{ rows, total }, next] = await Promise.all([
      this.repos.credits.ledgerPage(userId, page),
      this.repos.credits.nextExpiring(userId, nowIso()),
    ]);
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
      expiring: next ? { credits: next.remaining, expiresAt: next.expires_at } : null,
    };
  }
}

const ofJob = (jobId: string) => ({ sourceType: 'job' as const, sourceId: jobId });
const ofOrder = (orderId: string) => ({ sourceType: 'order' as const, sourceId: orderId });
