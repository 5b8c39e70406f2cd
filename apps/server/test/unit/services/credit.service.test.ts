import { BizCode } from '@huafang/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_ORIGIN } from '../../../src/features/audit/audit-recorder.js';
import { CreditService } from '../../../src/features/credits/credit.service.js';
import { BizError } from '../../../src/platform/errors.js';
import { openServiceDb, type ServiceDb } from './service-db.js';

let ctx: ServiceDb;
let credits: CreditService;
beforeEach(async () => {
  ctx = await openServiceDb();
  credits = new CreditService(ctx.repos, ctx.audit);
});
afterEach(() => ctx.close());

async function trail() {
  await ctx.audit.flush();
  const rows = await ctx.db.selectFrom('audit_log').selectAll().where('action', '=', 'credits.change').execute();
  return rows.map((row) => ({ userId: row.target_id, ...JSON.parse(row.detail) }));
}

describe('reserving credits for a job', () => {
  it('takes the cost in the caller’s transaction and says what it was for', async () => {
    const userId = await ctx.newUser(10);
    const change = await ctx.repos.transaction((trx) => credits.reserve(userId, 4, 'job-1', trx));
    expect(change).toEqual({ userId, delta: -4, balance: 6, reason: 'charge', ref: { jobId: 'job-1' } });
    expect(await credits.balance(userId)).toBe(6);
  });

  it('refuses with 10004 and the balance when the user is short, and never goes below zero', async () => {
    const userId = await ctx.newUser(3);
    const refused = await ctx.repos
      .transaction((trx) => credits.reserve(userId, 4, 'job-1', trx))
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(BizError);
    expect((refused as BizError).code).toBe(BizCode.QUOTA_EXHAUSTED);
    expect((refused as BizError).message).toContain('本次生成需要 4 点，当前剩余 3 点');
    expect(await credits.balance(userId)).toBe(3);
    // Exactly the balance may be spent, down to zero.
    await ctx.repos.transaction((trx) => credits.reserve(userId, 3, 'job-2', trx));
    expect(await credits.balance(userId)).toBe(0);
  });

  it('gives the credits back when the caller’s transaction rolls back', async () => {
    const userId = await ctx.newUser(10);
    await ctx.repos
      .transaction(async (trx) => {
        await credits.reserve(userId, 4, 'job-1', trx);
        throw new Error('the job rows failed');
      })
      .catch(() => undefined);
    expect(await credits.balance(userId)).toBe(10);
  });
});

describe('refunds', () => {
  it('adds back what a job did not produce, naming the job', async () => {
    const userId = await ctx.newUser(2);
    const change = await ctx.repos.transaction((trx) => credits.refund(userId, 3, 'job-1', trx));
    expect(change).toEqual({ userId, delta: 3, balance: 5, reason: 'refund', ref: { jobId: 'job-1' } });
    expect(await credits.balance(userId)).toBe(5);
  });

  it('changes nothing for nothing to give back, or for a user who is gone', async () => {
    const userId = await ctx.newUser(2);
    expect(await ctx.repos.transaction((trx) => credits.refund(userId, 0, 'job-1', trx))).toBeNull();
    expect(await ctx.repos.transaction((trx) => credits.refund('nobody', 5, 'job-1', trx))).toBeNull();
    expect(await credits.balance(userId)).toBe(2);
  });

  it('is written to the trail only when the caller records it', async () => {
    const userId = await ctx.newUser(2);
    const change = await ctx.repos.transaction((trx) => credits.refund(userId, 3, 'job-1', trx));
    expect(await trail()).toEqual([]);
    credits.recorded(change, NO_ORIGIN);
    credits.recorded(null, NO_ORIGIN);
    expect(await trail()).toEqual([{ userId, delta: 3, balance: 5, reason: 'refund', ref: { jobId: 'job-1' } }]);
  });
});

describe('admin grants', () => {
  it('adds credits, writes the grant into the ledger with its admin and remark, and records the change', async () => {
    const [adminId, userId] = [await ctx.newUser(), await ctx.newUser(5)];
    expect(await credits.grant(adminId, userId, 100, NO_ORIGIN, '月度套餐')).toBe(105);
    expect(await credits.balance(userId)).toBe(105);
    expect((await credits.ledger(userId, {})).list[0]).toMatchObject({
      delta: 100,
      balance: 105,
      reason: 'grant',
      sourceType: 'admin',
      sourceId: adminId,
      detail: '月度套餐',
    });
    expect(await trail()).toEqual([
      { userId, delta: 100, balance: 105, reason: 'grant', ref: { grantedBy: adminId, remark: '月度套餐' } },
    ]);
  });

  it('takes back at most what the user has: the balance stops at zero and the ledger keeps what was applied', async () => {
    const [adminId, userId] = [await ctx.newUser(), await ctx.newUser(30)];
    expect(await credits.grant(adminId, userId, -50, NO_ORIGIN)).toBe(0);
    expect(await credits.balance(userId)).toBe(0);
    expect((await credits.ledger(userId, {})).list[0]).toMatchObject({ delta: -30, balance: 0, detail: null });
    expect(await trail()).toEqual([
      { userId, delta: -30, balance: 0, reason: 'grant', ref: { grantedBy: adminId, remark: null } },
    ]);
  });

  it('answers 用户不存在 for an unknown user and writes nothing', async () => {
    const adminId = await ctx.newUser();
    await expect(credits.grant(adminId, 'nobody', 10, NO_ORIGIN)).rejects.toThrow('用户不存在');
    expect(await ctx.db.selectFrom('credit_ledger').selectAll().where('user_id', '=', 'nobody').execute()).toEqual([]);
    expect(await trail()).toEqual([]);
  });
});

describe('plan orders', () => {
  it('credits a paid order and takes back at most the unspent part on refund, each in the ledger', async () => {
    const userId = await ctx.newUser(0);
    const paid = await ctx.repos.transaction((trx) => credits.creditOrder(userId, 100, 'order-1', trx));
    expect(paid).toEqual({ userId, delta: 100, balance: 100, reason: 'plan', ref: { orderId: 'order-1' } });
    await ctx.repos.transaction((trx) => credits.reserve(userId, 70, 'job-1', trx));
    const back = await ctx.repos.transaction((trx) => credits.takeBackForRefund(userId, 100, 'order-1', trx));
    expect(back).toEqual({ userId, delta: -30, balance: 0, reason: 'plan_refund', ref: { orderId: 'order-1' } });
    const again = await ctx.repos.transaction((trx) => credits.takeBackForRefund(userId, 100, 'order-1', trx));
    expect(again.delta).toBe(0);
    // The channel reports the refund failed: what it took back returns, in the ledger as such.
    const returned = await ctx.repos.transaction((trx) => credits.returnAfterFailedRefund(userId, 30, 'order-1', trx));
    expect(returned).toEqual({ userId, delta: 30, balance: 30, reason: 'refund_failed', ref: { orderId: 'order-1' } });
    await ctx.repos.transaction((trx) => credits.takeBackForRefund(userId, 30, 'order-1', trx));
    const { list } = await credits.ledger(userId, {});
    expect(
      list.map(({ reason, delta, balance, sourceType, sourceId }) => ({
        reason,
        delta,
        balance,
        sourceType,
        sourceId,
      })),
    ).toEqual([
      { reason: 'plan_refund', delta: -30, balance: 0, sourceType: 'order', sourceId: 'order-1' },
      { reason: 'refund_failed', delta: 30, balance: 30, sourceType: 'order', sourceId: 'order-1' },
      { reason: 'plan_refund', delta: -30, balance: 0, sourceType: 'order', sourceId: 'order-1' },
      { reason: 'charge', delta: -70, balance: 30, sourceType: 'job', sourceId: 'job-1' },
      { reason: 'plan', delta: 100, balance: 100, sourceType: 'order', sourceId: 'order-1' },
    ]);
  });
});

describe('the ledger (算力明细)', () => {
  it('opens with the credits a new account starts with and adds up to the balance, change by change', async () => {
    const userId = await ctx.newUser(20);
    await ctx.repos.transaction((trx) => credits.reserve(userId, 8, 'job-1', trx));
    await ctx.repos.transaction((trx) => credits.refund(userId, 3, 'job-1', trx));
    const page = await credits.ledger(userId, { pageSize: 10 });
    expect(page.credits).toBe(15);
    expect(page.total).toBe(3);
    expect(page.list.map((entry) => [entry.reason, entry.delta, entry.balance])).toEqual([
      ['refund', 3, 15],
      ['charge', -8, 12],
      ['signup', 20, 20],
    ]);
    expect(page.list.reduce((sum, entry) => sum + entry.delta, 0)).toBe(page.credits);
  });

  it('lists nothing of a change that was rolled back, and nothing of another user', async () => {
    const [userId, otherId] = [await ctx.newUser(10), await ctx.newUser(10)];
    await ctx.repos
      .transaction(async (trx) => {
        await credits.reserve(userId, 4, 'job-1', trx);
        throw new Error('the job rows failed');
      })
      .catch(() => undefined);
    await ctx.repos.transaction((trx) => credits.reserve(otherId, 4, 'job-2', trx));
    expect((await credits.ledger(userId, {})).list.map((entry) => entry.reason)).toEqual(['signup']);
  });

  it('pages newest first without repeating or dropping a row', async () => {
    const userId = await ctx.newUser(100);
    for (let i = 0; i < 7; i += 1) await ctx.repos.transaction((trx) => credits.reserve(userId, 1, `job-${i}`, trx));
    const first = await credits.ledger(userId, { current: 1, pageSize: 5 });
    const second = await credits.ledger(userId, { current: 2, pageSize: 5 });
    expect(first.total).toBe(8);
    const ids = [...first.list, ...second.list].map((entry) => entry.id);
    expect(new Set(ids).size).toBe(8);
    expect(second.list.at(-1)?.reason).toBe('signup');
  });
});

describe('plan credits that expire', () => {
  const DAY = 86_400_000;
  const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
  const lotOf = (orderId: string) =>
    ctx.db.selectFrom('credit_lots').selectAll().where('source_id', '=', orderId).executeTakeFirstOrThrow();
  const buy = (userId: string, amount: number, orderId: string, expiresAt: string | null) =>
    ctx.repos.transaction((trx) => credits.creditOrder(userId, amount, orderId, trx, expiresAt));
  const charge = (userId: string, cost: number, jobId: string) =>
    ctx.repos.transaction((trx) => credits.reserve(userId, cost, jobId, trx));

  async function ledgerSum(userId: string) {
    const rows = await ctx.db.selectFrom('credit_ledger').select('delta').where('user_id', '=', userId).execute();
    return rows.reduce((sum, row) => sum + row.delta, 0);
  }

  it('spends the lot expiring soonest first and permanent credits last', async () => {
    const userId = await ctx.newUser(10);
    await buy(userId, 50, 'order-late', inDays(60));
    await buy(userId, 30, 'order-soon', inDays(7));
    await charge(userId, 40, 'job-1');
    expect((await lotOf('order-soon')).remaining).toBe(0);
    expect((await lotOf('order-late')).remaining).toBe(40);
    await charge(userId, 45, 'job-2');
    expect((await lotOf('order-late')).remaining).toBe(0);
    expect(await credits.balance(userId)).toBe(5);
    expect(await ledgerSum(userId)).toBe(5);
  });

  it('gives a refund back into the lot the charge took it from, permanent credits first', async () => {
    const userId = await ctx.newUser(10);
    await buy(userId, 30, 'order-1', inDays(7));
    await charge(userId, 35, 'job-1');
    // 30 came from the lot and 5 from permanent credits: 8 back returns the 5 first, then 3 into the lot.
    await ctx.repos.transaction((trx) => credits.refund(userId, 8, 'job-1', trx));
    expect((await lotOf('order-1')).remaining).toBe(3);
    expect(await credits.balance(userId)).toBe(13);
    expect(await ledgerSum(userId)).toBe(13);
  });

  it('takes off only what is left of a lot at its expiry, once however often the sweep runs', async () => {
    const userId = await ctx.newUser(10);
    await buy(userId, 100, 'order-1', inDays(30));
    await charge(userId, 60, 'job-1');
    expect(await credits.expireDue(new Date(Date.now() + 29 * DAY))).toBe(0);
    const later = new Date(Date.now() + 31 * DAY);
    expect(await credits.expireDue(later)).toBe(1);
    expect(await credits.expireDue(later)).toBe(0);
    expect(await credits.balance(userId)).toBe(10);
    expect((await credits.ledger(userId, {})).list[0]).toMatchObject({
      reason: 'expire',
      delta: -40,
      balance: 10,
      sourceType: 'order',
      sourceId: 'order-1',
    });
    expect(await lotOf('order-1')).toMatchObject({ remaining: 0, expired_at: later.toISOString() });
    // A job that drew from the lot and is refunded after the expiry: its credits return and go at the next sweep.
    await ctx.repos.transaction((trx) => credits.refund(userId, 20, 'job-1', trx));
    expect(await credits.balance(userId)).toBe(30);
    expect(await credits.expireDue(later)).toBe(1);
    expect(await credits.balance(userId)).toBe(10);
    expect(await ledgerSum(userId)).toBe(10);
  });

  it('takes a refunded order’s credits back from its own lot only, and returns them there when the refund fails', async () => {
    const userId = await ctx.newUser(500);
    await buy(userId, 100, 'order-1', inDays(30));
    await charge(userId, 70, 'job-1');
    const back = await ctx.repos.transaction((trx) => credits.takeBackForRefund(userId, 100, 'order-1', trx));
    expect(back.delta).toBe(-30);
    expect(await credits.balance(userId)).toBe(500);
    expect((await lotOf('order-1')).remaining).toBe(0);
    await ctx.repos.transaction((trx) => credits.returnAfterFailedRefund(userId, 30, 'order-1', trx));
    expect((await lotOf('order-1')).remaining).toBe(30);
    expect(await credits.takeableForRefund(userId, 'order-1')).toBe(30);
  });

  it('takes a permanent order’s credits back from permanent credits only', async () => {
    const userId = await ctx.newUser(0);
    await buy(userId, 100, 'order-permanent', null);
    await buy(userId, 50, 'order-lot', inDays(30));
    await charge(userId, 120, 'job-1');
    // The charge spent the lot first, then 70 of the permanent 100.
    expect(await credits.takeableForRefund(userId, 'order-permanent')).toBe(30);
    const back = await ctx.repos.transaction((trx) => credits.takeBackForRefund(userId, 100, 'order-permanent', trx));
    expect(back.delta).toBe(-30);
    expect(await credits.balance(userId)).toBe(0);
  });

  it('spends lots first when an admin takes credits away, and names the next expiry in 算力明细', async () => {
    const [adminId, userId] = [await ctx.newUser(), await ctx.newUser(20)];
    const soon = inDays(7);
    await buy(userId, 30, 'order-1', soon);
    await buy(userId, 40, 'order-2', inDays(60));
    expect((await credits.ledger(userId, {})).expiring).toEqual({ credits: 30, expiresAt: soon });
    await credits.grant(adminId, userId, -35, NO_ORIGIN);
    expect((await lotOf('order-1')).remaining).toBe(0);
    expect((await lotOf('order-2')).remaining).toBe(35);
    expect((await credits.ledger(userId, {})).expiring?.credits).toBe(35);
    expect((await credits.ledger(await ctx.newUser(5), {})).expiring).toBeNull();
  });
});
