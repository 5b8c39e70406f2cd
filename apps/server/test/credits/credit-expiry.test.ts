import { beforeAll, expect, it } from 'vitest';
import { AlipayDouble } from '../doubles/alipay-double.js';
import { describeServer } from '../helpers/suite.js';
import { registerUser, TEST_DB, type TestApp, type TestUser } from '../helpers/test-app.js';
import { useAlipayApp } from '../payments/alipay-app.js';

const DAY_MS = 86_400_000;

/**
 * Plans whose credits expire: bought through the real alipay-sdk against the gateway double, the order's credits
 * form a lot that charges spend first, the sweep takes what is left off at the end of the validity, once, however
 * many sweeps and charges run together, and the balance always equals the ledger.
 */
describeServer('credits: a plan’s validity', () => {
  const double = new AlipayDouble();
  const { ctx } = useAlipayApp(double);
  let planId = '';
  beforeAll(async () => {
    const created = await ctx.app.call('POST', '/api/admin/combos', {
      token: ctx.admin,
      body: { name: '月卡', credits: 300, priceFen: 1500, validityDays: 30, sort: 9 },
    });
    expect(created.body.code, created.body.msg).toBe(0);
    planId = created.body.data.id;
  });

  /** A new buyer pays for the 30-day plan; answers them, the order and their credits before it. */
  async function buy() {
    const buyer = await registerUser(ctx.app);
    const start = (await ctx.app.call('GET', '/api/account/combo/store', { token: buyer.token })).body.data.credits;
    const res = await ctx.app.call('POST', '/api/pay/orders', {
      token: buyer.token,
      body: { planId, channel: 'alipay', device: 'desktop' },
    });
    expect(res.body.code, res.body.msg).toBe(0);
    const orderId: string = res.body.data.order.id;
    await fetch(res.body.data.action.url);
    await double.pay(orderId);
    return { buyer, orderId, start: start as number };
  }

  const lotOf = (orderId: string) =>
    ctx.app.db.selectFrom('credit_lots').selectAll().where('source_id', '=', orderId).executeTakeFirstOrThrow();

  async function ledgerOf(buyer: TestUser) {
    return (await ctx.app.call('GET', '/api/account/credits/ledger?pageSize=100', { token: buyer.token })).body.data;
  }

  /** The balance equals the sum of the ledger, and never drops below zero. */
  async function expectBalanced(buyer: TestUser): Promise<number> {
    const page = await ledgerOf(buyer);
    expect(page.total).toBeLessThanOrEqual(100);
    expect(page.list.reduce((sum: number, entry: { delta: number }) => sum + entry.delta, 0)).toBe(page.credits);
    expect(page.credits).toBeGreaterThanOrEqual(0);
    return page.credits;
  }

  /**
   * A second API process on PostgreSQL, where several may run; embedded SQLite has one process, whose transactions
   * take turns, so there the same app runs the parallel calls.
   */
  async function secondProcess(): Promise<{ other: TestApp; close: () => Promise<void> }> {
    if (TEST_DB !== 'postgres') return { other: ctx.app, close: async () => {} };
    const other = await ctx.app.sibling();
    return { other, close: () => other.close() };
  }

  const charge = (app: TestApp, buyer: TestUser, cost: number, jobId: string) =>
    app.services.credits.reserve(buyer.userId, cost, jobId);

  it('shows the validity on the plan and keeps it on the order; permanent plans say nothing', async () => {
    const buyer = await registerUser(ctx.app);
    const store = (await ctx.app.call('GET', '/api/account/combo/store', { token: buyer.token })).body.data;
    const plans = new Map(store.plans.map((p: { id: string; validityDays: number | null }) => [p.id, p.validityDays]));
    expect(plans.get(planId)).toBe(30);
    // The demo's 体验版 lasts; 创作版 and 团队版 last a year.
    expect([...plans.values()].filter((days) => days === null)).toHaveLength(1);
    expect([...plans.values()].filter((days) => days === 365)).toHaveLength(2);
    const refused = await ctx.app.call('PUT', `/api/admin/combos/${planId}`, {
      token: ctx.admin,
      body: { name: '月卡', credits: 300, priceFen: 1500, validityDays: 0 },
    });
    expect(refused.body).toMatchObject({ code: -1, msg: expect.stringContaining('有效期至少 1 天') });

    const { orderId } = await buy();
    const order = (await ctx.app.call('GET', `/api/admin/orders/${orderId}`, { token: ctx.admin })).body.data.order;
    expect(order.validityDays).toBe(30);
    const lot = await lotOf(orderId);
    expect(lot).toMatchObject({ amount: 300, remaining: 300, expired_at: null });
    expect(Date.parse(lot.expires_at) - Date.parse(order.paidAt)).toBe(30 * DAY_MS);
  });

  it('spends the plan’s credits before the permanent ones, and 算力明细 says when they expire', async () => {
    const { buyer, orderId, start } = await buy();
    await charge(ctx.app, buyer, 120, 'job-a');
    expect((await lotOf(orderId)).remaining).toBe(180);
    const page = await ledgerOf(buyer);
    expect(page.credits).toBe(start + 180);
    expect(page.expiring).toEqual({ credits: 180, expiresAt: (await lotOf(orderId)).expires_at });
    await expectBalanced(buyer);
  });

  it('takes off only the unspent part at expiry, once, with sweeps on two processes at once', async () => {
    const { buyer, orderId, start } = await buy();
    await charge(ctx.app, buyer, 100, 'job-b');
    const { other, close } = await secondProcess();
    const after = new Date(Date.now() + 31 * DAY_MS);
    try {
      await Promise.all([
        ctx.app.services.credits.expireDue(after),
        other.services.credits.expireDue(after),
        ctx.app.services.credits.expireDue(after),
      ]);
    } finally {
      await close();
    }
    await ctx.app.services.credits.expireDue(after);
    const page = await ledgerOf(buyer);
    const expired = page.list.filter((entry: { reason: string }) => entry.reason === 'expire');
    expect(expired).toEqual([
      expect.objectContaining({ delta: -200, sourceType: 'order', sourceId: orderId, detail: '月卡' }),
    ]);
    expect(page.credits).toBe(start);
    expect(page.expiring).toBeNull();
    expect(await lotOf(orderId)).toMatchObject({ remaining: 0, expired_at: after.toISOString() });
    await expectBalanced(buyer);
  });

  it('keeps balance and ledger equal when charges on two processes race the expiry sweep', async () => {
    const { buyer, orderId, start } = await buy();
    const { other, close } = await secondProcess();
    const after = new Date(Date.now() + 31 * DAY_MS);
    let outcomes: PromiseSettledResult<unknown>[];
    try {
      outcomes = await Promise.allSettled([
        // Less than the lot holds, so whatever the order, part of the lot is left to expire.
        ...Array.from({ length: 5 }, (_, i) => charge(i % 2 === 0 ? ctx.app : other, buyer, 40, `job-race-${i}`)),
        ctx.app.services.credits.expireDue(after),
        other.services.credits.expireDue(after),
      ]);
    } finally {
      await close();
    }
    const charged = outcomes.slice(0, 5).filter((o) => o.status === 'fulfilled').length;
    const balance = await expectBalanced(buyer);
    const page = await ledgerOf(buyer);
    const expired = page.list.filter((entry: { reason: string }) => entry.reason === 'expire');
    expect(expired).toHaveLength(1);
    const expiredCredits = -expired.reduce((sum: number, entry: { delta: number }) => sum + entry.delta, 0);
    // Every credit is accounted for: bought, spent, expired or still there; the lot's unspent part expired.
    expect(start + 300 - charged * 40 - expiredCredits).toBe(balance);
    expect(await lotOf(orderId)).toMatchObject({ remaining: 0, expired_at: after.toISOString() });
    // Charges spend the lot first, so what expired is what the charges before the sweep left of it (40 each).
    expect(expiredCredits).toBeGreaterThanOrEqual(100);
    expect((300 - expiredCredits) % 40).toBe(0);
  });

  it('refunds an order after part of it was spent: takes back its unspent credits only, and nothing expires later', async () => {
    const { buyer, orderId, start } = await buy();
    await charge(ctx.app, buyer, 100, 'job-c');
    const detail = (await ctx.app.call('GET', `/api/admin/orders/${orderId}`, { token: ctx.admin })).body.data;
    // The buyer's sign-up credits are not the order's: only what is left of its 300 can go back.
    expect(detail.refundPreview).toMatchObject({
      balance: start + 200,
      takeable: 200,
      creditsToTake: 300,
      creditsShort: 100,
    });
    const refund = await ctx.app.call('POST', `/api/admin/orders/${orderId}/refund`, {
      token: ctx.admin,
      body: { amountFen: 1500, reason: '用户申请退款' },
    });
    expect(refund.body.code, refund.body.msg).toBe(0);
    expect(refund.body.data.refund).toMatchObject({ status: 'succeeded', creditsTaken: 200, creditsShort: 100 });
    expect(refund.body.data.order.review).toBe('退款时用户已用掉或已过期 100 点算力，未能扣回');
    expect((await lotOf(orderId)).remaining).toBe(0);
    await ctx.app.services.credits.expireDue(new Date(Date.now() + 31 * DAY_MS));
    const page = await ledgerOf(buyer);
    // The sign-up credits are untouched: the charge was paid from the plan's lot.
    expect(page.credits).toBe(start);
    expect(page.list.map((entry: { reason: string }) => entry.reason)).not.toContain('expire');
    await expectBalanced(buyer);
  });
});
