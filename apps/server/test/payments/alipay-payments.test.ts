import { beforeAll, expect, it } from 'vitest';
import { AlipayDouble } from '../doubles/alipay-double.js';
import { describeServer } from '../helpers/suite.js';
import { registerUser, type TestApp } from '../helpers/test-app.js';
import { useAlipayApp } from './alipay-app.js';
import { type StorePlan, storeBuyer } from './store-buyer.js';

/**
 * Buying a plan with Alipay, through the real alipay-sdk against a double of Alipay's gateway that signs its
 * answers and notifications with RSA2 keys made here: every payment credited exactly once, never without money.
 */
describeServer('payments: Alipay', () => {
  const double = new AlipayDouble();
  const { ctx, notifyUrl } = useAlipayApp(double);
  const shop = storeBuyer(() => ctx.app, 'alipay');
  let plan: StorePlan;
  beforeAll(async () => {
    plan = (await shop.store()).plans[0]!;
  });

  const notify = (app: TestApp, body: string) =>
    app.app.inject({
      method: 'POST',
      url: '/api/pay/notify/alipay',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      payload: body,
    });
  const { balance, orderOf } = shop;

  /** A new buyer orders the plan and opens Alipay's cashier page the answer points at. */
  async function buy(device: 'desktop' | 'phone' = 'desktop') {
    const { action, ...bought } = await shop.order(plan, device);
    if (action.kind !== 'redirect') throw new Error(`Alipay answered ${action.kind}`);
    const cashier = await fetch(action.url);
    expect(cashier.status).toBe(200);
    return bought;
  }

  it('offers Alipay in 套餐商店 with prices in fen', async () => {
    const store = await shop.store();
    expect(store.notice).toBeNull();
    expect(store.channels).toEqual([{ name: 'alipay', label: '支付宝', devices: ['desktop', 'phone'] }]);
    expect(store.plans.map((p) => p.priceFen)).toEqual([990, 4900, 19900]);
    // Paying inside WeChat needs WeChat Pay with an official account.
    const someone = await registerUser(ctx.app);
    const authorize = await ctx.app.call('GET', '/api/pay/wechat/authorize?returnPath=/draw&state=st4te-0f-page', {
      token: someone.token,
    });
    expect(authorize.body.msg).toBe('未开通微信内支付，请使用扫码或其他支付方式');
  });

  it('credits the plan once the buyer pays at the cashier, and lists it in 我的订单', async () => {
    const { buyer, orderId, start } = await buy();
    expect(double.trades.get(orderId)?.totalAmount).toBe('9.90');
    // Alipay was told to notify PUBLIC_BASE_URL/api/pay/notify/alipay.
    expect(double.notifyUrlOf(orderId)).toBe(notifyUrl());
    await double.pay(orderId);

    const after = await orderOf(buyer, orderId);
    expect(after.order.status).toBe('paid');
    expect(after.credits).toBe(start + plan.credits);
    const mine = await ctx.app.call('GET', '/api/pay/orders', { token: buyer.token });
    expect(mine.body.data.total).toBe(1);
    expect(mine.body.data.list[0]).toMatchObject({ id: orderId, status: 'paid', amountFen: 990 });
  });

  it('pays on a phone through 手机网站支付', async () => {
    const { buyer, orderId, start } = await buy('phone');
    expect(double.calls.some((c) => c.method === 'alipay.trade.wap.pay' && c.biz.out_trade_no === orderId)).toBe(true);
    await double.pay(orderId);
    expect(await balance(buyer, orderId)).toBe(start + plan.credits);
  });

  it('reuses one pending order however many buys of the plan arrive at once', async () => {
    const buyer = await registerUser(ctx.app);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        ctx.app.call('POST', '/api/pay/orders', {
          token: buyer.token,
          body: { planId: plan.id, channel: 'alipay', device: 'desktop' },
        }),
      ),
    );
    const ids = new Set(answers.map((a) => a.body.data?.order.id));
    expect(ids.size).toBe(1);
    const mine = await ctx.app.call('GET', '/api/pay/orders', { token: buyer.token });
    expect(mine.body.data.total).toBe(1);
  });

  it('credits once when the same notification arrives 20 times at once on two API processes', async () => {
    const { buyer, orderId, start } = await buy();
    const body = await double.pay(orderId, { deliver: false });
    const other = await ctx.app.sibling();
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => notify(i % 2 === 0 ? ctx.app : other, body)),
      );
      expect(answers.map((a) => a.body)).toEqual(Array(20).fill('success'));
    } finally {
      await other.close();
    }
    expect(await balance(buyer, orderId)).toBe(start + plan.credits);
  });

  it('credits once when the notification, 我已支付 and the sweep arrive together', async () => {
    const { buyer, orderId, start } = await buy();
    const body = await double.pay(orderId, { deliver: false });
    const other = await ctx.app.sibling();
    try {
      await Promise.all([
        notify(ctx.app, body),
        other.call('POST', `/api/pay/orders/${orderId}/check`, { token: buyer.token }),
        ctx.app.call('POST', `/api/pay/orders/${orderId}/check`, { token: buyer.token }),
        ctx.app.services.orders.sweep(),
        other.services.orders.sweep(),
      ]);
    } finally {
      await other.close();
    }
    expect(await balance(buyer, orderId)).toBe(start + plan.credits);
    expect((await orderOf(buyer, orderId)).order.status).toBe('paid');
  });

  it('never credits a tampered amount, another app, a bad signature or an unpaid trade', async () => {
    const { buyer, orderId, start } = await buy();
    const unpaid = double.tradeNotice(orderId);
    const bodies = [
      // A paid notification with its amount changed after signing.
      double.tradeNotice(orderId, { trade_status: 'TRADE_SUCCESS' }).replace('total_amount=9.90', 'total_amount=0.01'),
      // Correctly signed, but for less money than the order.
      double.tradeNotice(orderId, { trade_status: 'TRADE_SUCCESS', total_amount: '0.01' }),
      // Correctly signed, but for another app and another seller.
      double.tradeNotice(orderId, { trade_status: 'TRADE_SUCCESS', app_id: '2021000000009999' }),
      double.tradeNotice(orderId, { trade_status: 'TRADE_SUCCESS', seller_id: '2088000000009999' }),
      // Signed with a key that is not Alipay's.
      double.signNotice(
        Object.fromEntries([...new URLSearchParams(double.tradeNotice(orderId, { trade_status: 'TRADE_SUCCESS' }))]),
        double.app.privateKey,
      ),
      // Correctly signed, but nobody has paid.
      unpaid,
    ];
    for (const body of bodies) expect((await notify(ctx.app, body)).body).toBe('fail');
    expect((await orderOf(buyer, orderId)).order.status).toBe('pending');
    expect(await balance(buyer, orderId)).toBe(start);
  });

  it('credits a payment whose notification was lost, through the sweep', async () => {
    const { buyer, orderId, start } = await buy();
    await double.pay(orderId, { deliver: false });
    expect((await orderOf(buyer, orderId)).order.status).toBe('pending');
    await ctx.app.services.orders.sweep();
    expect((await orderOf(buyer, orderId)).order.status).toBe('paid');
    expect(await balance(buyer, orderId)).toBe(start + plan.credits);
  });

  it('closes an expired order here and at Alipay, and a cancelled one too', async () => {
    const expired = await buy();
    await ctx.app.db
      .updateTable('orders')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expired.orderId)
      .execute();
    await ctx.app.services.orders.sweep();
    expect((await orderOf(expired.buyer, expired.orderId)).order).toMatchObject({
      status: 'closed',
      closeReason: 'expired',
    });
    expect(double.trades.get(expired.orderId)?.status).toBe('TRADE_CLOSED');

    const cancelled = await buy();
    const res = await ctx.app.call('POST', `/api/pay/orders/${cancelled.orderId}/cancel`, {
      token: cancelled.buyer.token,
    });
    expect(res.body).toMatchObject({ code: 0, msg: '订单已取消' });
    expect(res.body.data.order).toMatchObject({ status: 'closed', closeReason: 'cancelled' });
    expect(double.trades.get(cancelled.orderId)?.status).toBe('TRADE_CLOSED');
  });

  it('refunds: takes the credits back once however often the refund notification repeats', async () => {
    const { buyer, orderId, start } = await buy();
    await double.pay(orderId);
    const refund = await ctx.app.call('POST', `/api/admin/orders/${orderId}/refund`, {
      token: ctx.admin,
      body: { amountFen: 990, reason: '用户申请退款' },
    });
    expect(refund.body.code, refund.body.msg).toBe(0);
    expect(refund.body.data.refund).toMatchObject({ status: 'succeeded', creditsTaken: plan.credits, creditsShort: 0 });
    expect(refund.body.data.order.status).toBe('refunded');
    const refundId = refund.body.data.refund.id;
    const body = double.refundNotice(orderId, refundId);
    for (let i = 0; i < 3; i++) expect((await notify(ctx.app, body)).body).toBe('success');
    expect(await balance(buyer, orderId)).toBe(start);
    const detail = await ctx.app.call('GET', `/api/admin/orders/${orderId}`, { token: ctx.admin });
    expect(detail.body.data.order).toMatchObject({ status: 'refunded', refundedFen: 990 });
    expect(detail.body.data.refunds).toHaveLength(1);
    expect(detail.body.data.refundPreview).toBeNull();
  });

  it('refunds part of an order and says what the buyer had already spent', async () => {
    const { buyer, orderId, start } = await buy();
    await double.pay(orderId);
    // The buyer spends all but 50 of the plan's credits; half the money back asks for 100.
    await ctx.app.call('POST', '/api/admin/users/credits', {
      token: ctx.admin,
      body: { userId: buyer.userId, amount: -(start + plan.credits - 50) },
    });
    const refund = await ctx.app.call('POST', `/api/admin/orders/${orderId}/refund`, {
      token: ctx.admin,
      body: { amountFen: 495, reason: '部分退款' },
    });
    expect(refund.body.code, refund.body.msg).toBe(0);
    expect(refund.body.data.refund).toMatchObject({ status: 'succeeded', creditsTaken: 50, creditsShort: 50 });
    expect(refund.body.data.order).toMatchObject({ status: 'partially_refunded', refundedFen: 495 });
    expect(refund.body.data.order.review).toBe('退款时用户已用掉 50 点算力，未能扣回');
    expect(refund.body.data.advice).toContain('已用掉该订单的 50 点算力');
    expect(await balance(buyer, orderId)).toBe(0);
  });

  it('reconciles a correct day to an empty list, and names an amount that does not match', async () => {
    const { orderId } = await buy();
    await double.pay(orderId);
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const run = () =>
      ctx.app.call('POST', '/api/admin/payments/reconciliation', { token: ctx.admin, body: { date: today } });
    const clean = await run();
    expect(clean.body.code, clean.body.msg).toBe(0);
    expect(clean.body.data.checked).toBeGreaterThan(0);
    expect(clean.body.data.mismatches).toEqual([]);

    await ctx.app.db.updateTable('orders').set({ amount_fen: 1 }).where('id', '=', orderId).execute();
    const found = await run();
    expect(found.body.data.mismatches).toEqual([
      { orderId, channel: 'alipay', kind: 'amount_mismatch', detail: '本站 ¥0.01 / 渠道 ¥9.90' },
    ]);
    const read = await ctx.app.call('GET', `/api/admin/payments/reconciliation?date=${today}`, { token: ctx.admin });
    expect(read.body.data.mismatches).toHaveLength(1);
    await ctx.app.db.updateTable('orders').set({ amount_fen: 990 }).where('id', '=', orderId).execute();
  });

  it('lists, filters and exports orders for admins only', async () => {
    const { buyer, orderId } = await buy();
    const list = await ctx.app.call('GET', `/api/admin/orders?user=${buyer.mobile}&status=pending`, {
      token: ctx.admin,
    });
    expect(list.body.data.list.map((o: { id: string }) => o.id)).toEqual([orderId]);
    const csv = await ctx.app.app.inject({
      method: 'GET',
      url: `/api/admin/orders/export?user=${buyer.userId}`,
      headers: { authorization: `Bearer ${ctx.admin}` },
    });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain(orderId);
    expect(csv.body).toContain('9.90');
    const refused = await ctx.app.call('GET', '/api/admin/orders', { token: buyer.token });
    expect(refused.status).toBe(403);
    const notMine = await ctx.app.call('GET', `/api/pay/orders/${orderId}`, {
      token: (await registerUser(ctx.app)).token,
    });
    expect(notMine.status).toBe(404);
  });

  it('shows paid orders and revenue per day on 数据看板', async () => {
    const { orderId } = await buy();
    const before = (await ctx.app.call('GET', '/api/admin/dashboard?days=1', { token: ctx.admin })).body.data.days[0];
    await double.pay(orderId);
    const after = (await ctx.app.call('GET', '/api/admin/dashboard?days=1', { token: ctx.admin })).body.data.days[0];
    expect(after.paidOrders).toBe(before.paidOrders + 1);
    expect(after.revenueFen).toBe(before.revenueFen + 990);
  });
});
