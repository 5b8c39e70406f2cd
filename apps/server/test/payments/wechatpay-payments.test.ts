import { createSign } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  newWechatPayAccount,
  startWechatPayDouble,
  type WechatNotice,
  type WechatPayDouble,
} from '../doubles/wechatpay-double.js';
import { freePort } from '../helpers/free-port.js';
import { describeServer } from '../helpers/suite.js';
import { registerUser, type TestApp } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { type StorePlan, storeBuyer } from './store-buyer.js';

/**
 * Buying a plan with WeChat Pay, through the real wechatpay-axios-plugin against a double of API v3 that signs its
 * answers and notifications with keys made here and encrypts their resource under the APIv3 key: Native on a
 * desktop, H5 on a phone, JSAPI inside WeChat; every payment credited exactly once, never without money.
 */
describeServer('payments: WeChat Pay', () => {
  let wechat: WechatPayDouble;
  let port = 0;
  beforeAll(async () => {
    wechat = await startWechatPayDouble(await newWechatPayAccount('public-key'));
    port = await freePort();
  });
  const ctx = useTestApp({
    admin: true,
    config: () => ({
      payments: {
        orderTtlMs: 15 * 60_000,
        publicBaseUrl: `http://127.0.0.1:${port}`,
        alipay: null,
        wechatPay: wechat.config,
      },
    }),
  });
  const shop = storeBuyer(() => ctx.app, 'wechat');
  const { balance, orderOf } = shop;
  let plan: StorePlan;
  beforeAll(async () => {
    // The double's cashier sends its notifications to PUBLIC_BASE_URL, so the app listens there.
    await ctx.app.app.listen({ port, host: '127.0.0.1' });
    plan = (await shop.store()).plans[0]!;
  });
  afterAll(() => wechat?.close());

  const notifyUrl = () => `http://127.0.0.1:${port}/api/pay/notify/wechat`;
  const notify = (app: TestApp, notice: WechatNotice) =>
    app.app.inject({ method: 'POST', url: '/api/pay/notify/wechat', headers: notice.headers, payload: notice.rawBody });

  /** A new buyer orders the plan on a desktop and gets the Native code to scan. */
  async function buy() {
    const bought = await shop.order(plan, 'desktop');
    expect(bought.action.kind).toBe('qrcode');
    return bought;
  }

  /** The buyer pays at WeChat's cashier, and WeChat sends the notification to the trade's notify_url. */
  async function payAtCashier(orderId: string) {
    const trade = wechat.pay(orderId);
    const delivery = await wechat.deliver(trade.notifyUrl, wechat.tradeNotice(orderId));
    expect(delivery.status, delivery.body).toBe(204);
  }

  /** What a correctly signed notification of a paid trade carries, before a test changes one field of it. */
  const paidFields = () => ({ trade_state: 'SUCCESS', transaction_id: '4200000000202611270000000001' });

  it('offers 微信支付 in 套餐商店 on a desktop, a phone and inside WeChat', async () => {
    const store = await shop.store();
    expect(store.notice).toBeNull();
    expect(store.channels).toEqual([{ name: 'wechat', label: '微信支付', devices: ['desktop', 'phone', 'wechat'] }]);
  });

  it('desktop: a Native code to scan, credited once the buyer pays, and listed in 我的订单', async () => {
    const { buyer, orderId, action, start } = await buy();
    expect(action).toEqual({ kind: 'qrcode', codeUrl: expect.stringMatching(/^weixin:\/\/wxpay\/bizpayurl\?pr=/) });
    const trade = wechat.trades.get(orderId)!;
    expect(trade).toMatchObject({ tradeType: 'NATIVE', total: 990, appid: wechat.account.appId });
    // WeChat was told to notify PUBLIC_BASE_URL/api/pay/notify/wechat.
    expect(trade.notifyUrl).toBe(notifyUrl());
    await payAtCashier(orderId);

    const after = await orderOf(buyer, orderId);
    expect(after.order.status).toBe('paid');
    expect(after.credits).toBe(start + plan.credits);
    const mine = await shop.myOrders(buyer);
    expect(mine.total).toBe(1);
    expect(mine.list[0]).toMatchObject({ id: orderId, status: 'paid', amountFen: 990, channel: 'wechat' });
  });

  it('phone: an H5 order sends the buyer to h5_url, which comes back to the result page', async () => {
    const { buyer, orderId, action, start } = await shop.order(plan, 'phone');
    const trade = wechat.trades.get(orderId)!;
    expect(trade.tradeType).toBe('MWEB');
    if (action.kind !== 'redirect') throw new Error(`H5 answered ${action.kind}`);
    const url = new URL(action.url);
    expect(action.url.startsWith(`${trade.answer.h5_url}&redirect_url=`)).toBe(true);
    expect(url.searchParams.get('redirect_url')).toBe(`http://127.0.0.1:${port}/pay/result?orderId=${orderId}`);
    const cashier = await fetch(action.url);
    expect(cashier.status).toBe(200);
    expect(await cashier.text()).toContain('¥9.90');
    await payAtCashier(orderId);
    expect(await balance(buyer, orderId)).toBe(start + plan.credits);
  });

  it('inside WeChat: the official account’s silent authorisation gives the openid, once per code', async () => {
    const someone = await registerUser(ctx.app);
    const returnPath = `/account/pay/wechat?planId=${plan.id}`;
    const authorize = await ctx.app.call(
      'GET',
      `/api/pay/wechat/authorize?returnPath=${encodeURIComponent(returnPath)}&state=st4te-0f-page`,
      { token: someone.token },
    );
    expect(authorize.body.code, authorize.body.msg).toBe(0);
    const url = new URL(authorize.body.data.url);
    expect(url.searchParams.get('scope')).toBe('snsapi_base');
    expect(url.searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${port}${returnPath}`);
    // WeChat's browser is sent back to the page with a code and the page's state.
    const back = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
    expect(back.pathname + back.search).toContain(returnPath);
    expect(back.searchParams.get('state')).toBe('st4te-0f-page');
    const code = back.searchParams.get('code')!;

    const exchange = () => ctx.app.call('POST', '/api/pay/wechat/openid', { token: someone.token, body: { code } });
    expect((await exchange()).body).toMatchObject({ code: 0, data: { openid: wechat.account.openid } });
    expect((await exchange()).body).toMatchObject({ code: expect.any(Number), msg: '微信授权已失效，请重新发起支付' });
    expect(JSON.stringify(ctx.app.logLines)).not.toContain(wechat.account.mpAppSecret);
    const anonymous = await ctx.app.call('POST', '/api/pay/wechat/openid', { body: { code } });
    expect(anonymous.status).toBe(401);
  });

  it('inside WeChat: a JSAPI order for the buyer’s openid gives the signed WeixinJSBridge parameters', async () => {
    const refused = await ctx.app.call('POST', '/api/pay/orders', {
      token: (await registerUser(ctx.app)).token,
      body: { planId: plan.id, channel: 'wechat', device: 'wechat' },
    });
    expect(refused.body).toMatchObject({ code: expect.any(Number), msg: '请在微信中授权后再支付' });

    const { buyer, orderId, action, start } = await shop.order(plan, 'wechat', { openid: wechat.account.openid });
    if (action.kind !== 'jsapi') throw new Error(`JSAPI answered ${action.kind}`);
    const trade = wechat.trades.get(orderId)!;
    expect(trade).toMatchObject({ tradeType: 'JSAPI', appid: wechat.account.mpAppId, openid: wechat.account.openid });
    expect(action.params).toMatchObject({
      appId: wechat.account.mpAppId,
      package: `prepay_id=${trade.answer.prepay_id}`,
      signType: 'RSA',
    });
    // A JSAPI trade carries the official account's app id, which the settlement accepts as ours.
    await payAtCashier(orderId);
    expect(await balance(buyer, orderId)).toBe(start + plan.credits);
  });

  it('继续支付 on another device closes the order at WeChat and pays the plan as a new order, credited once', async () => {
    const { buyer, orderId, start } = await buy();
    const again = await ctx.app.call('POST', `/api/pay/orders/${orderId}/pay`, {
      token: buyer.token,
      body: { device: 'phone' },
    });
    expect(again.body.code, again.body.msg).toBe(0);
    const next = again.body.data.order as { id: string; status: string };
    expect(next.id).not.toBe(orderId);
    expect(next.status).toBe('pending');
    expect(again.body.data.action.kind).toBe('redirect');
    expect(wechat.trades.get(next.id)?.tradeType).toBe('MWEB');
    // The desktop's code can no longer be paid: its order is closed here and at WeChat.
    expect((await orderOf(buyer, orderId)).order).toMatchObject({ status: 'closed', closeReason: 'cancelled' });
    expect(wechat.trades.get(orderId)?.state).toBe('CLOSED');

    await payAtCashier(next.id);
    expect(await balance(buyer, next.id)).toBe(start + plan.credits);
    const mine = await shop.myOrders(buyer);
    expect(mine.list.map((order) => [order.id, order.status])).toEqual([
      [next.id, 'paid'],
      [orderId, 'closed'],
    ]);
  });

  it('credits once when the same notification arrives 20 times at once on two API processes', async () => {
    const { buyer, orderId, start } = await buy();
    wechat.pay(orderId);
    const notice = wechat.tradeNotice(orderId);
    const other = await ctx.app.sibling();
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => notify(i % 2 === 0 ? ctx.app : other, notice)),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(204));
    } finally {
      await other.close();
    }
    expect(await balance(buyer, orderId)).toBe(start + plan.credits);
  });

  it('credits once when the notification, 我已支付 and the sweep arrive together', async () => {
    const { buyer, orderId, start } = await buy();
    wechat.pay(orderId);
    const notice = wechat.tradeNotice(orderId);
    const other = await ctx.app.sibling();
    try {
      await Promise.all([
        notify(ctx.app, notice),
        shop.check(buyer, orderId, other),
        shop.check(buyer, orderId),
        ctx.app.services.orders.sweep(),
        other.services.orders.sweep(),
      ]);
    } finally {
      await other.close();
    }
    expect(await balance(buyer, orderId)).toBe(start + plan.credits);
    expect((await orderOf(buyer, orderId)).order.status).toBe('paid');
  });

  it('never credits a tampered amount, another app or merchant, a bad signature or an unpaid trade', async () => {
    const { buyer, orderId, start } = await buy();
    const genuine = wechat.tradeNotice(orderId, paidFields());
    // Signed with the merchant's own key instead of WeChat's.
    const forged = createSign('RSA-SHA256')
      .update(`${genuine.headers['Wechatpay-Timestamp']}\n${genuine.headers['Wechatpay-Nonce']}\n${genuine.rawBody}\n`)
      .sign(wechat.account.merchantPrivateKey, 'base64');
    const notices: WechatNotice[] = [
      // Correctly signed, but for less money than the order.
      wechat.tradeNotice(orderId, { ...paidFields(), amount: { total: 1, payer_total: 1, currency: 'CNY' } }),
      // Correctly signed, but for another app, and for another merchant.
      wechat.tradeNotice(orderId, { ...paidFields(), appid: 'wx0000000000000000' }),
      wechat.tradeNotice(orderId, { ...paidFields(), mchid: '1900000000' }),
      // A paid notification whose body changed after signing.
      { headers: genuine.headers, rawBody: genuine.rawBody.replace('"event_type":"', '"event_type":"X') },
      { headers: { ...genuine.headers, 'Wechatpay-Signature': forged }, rawBody: genuine.rawBody },
      // Correctly signed, but nobody has paid.
      wechat.tradeNotice(orderId, { trade_state: 'NOTPAY' }),
    ];
    for (const notice of notices) {
      const answer = await notify(ctx.app, notice);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({ code: 'FAIL', message: '失败' });
    }
    // 我已支付 asks WeChat, which says NOTPAY: still nothing.
    expect((await shop.check(buyer, orderId)).body.data.order.status).toBe('pending');
    expect(await balance(buyer, orderId)).toBe(start);
  });

  it('credits a payment whose notification was lost, through 我已支付 and through the sweep', async () => {
    const checked = await buy();
    wechat.pay(checked.orderId);
    const answer = await shop.check(checked.buyer, checked.orderId);
    expect(answer.body.data.order.status).toBe('paid');
    expect(answer.body.data.credits).toBe(checked.start + plan.credits);

    const swept = await buy();
    wechat.pay(swept.orderId);
    expect((await orderOf(swept.buyer, swept.orderId)).order.status).toBe('pending');
    await ctx.app.services.orders.sweep();
    expect((await orderOf(swept.buyer, swept.orderId)).order.status).toBe('paid');
    expect(await balance(swept.buyer, swept.orderId)).toBe(swept.start + plan.credits);
  });

  it('closes an expired order here and at WeChat, and a cancelled one too; one paid after closing is still credited', async () => {
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
    expect(wechat.trades.get(expired.orderId)?.state).toBe('CLOSED');

    const cancelled = await buy();
    const res = await ctx.app.call('POST', `/api/pay/orders/${cancelled.orderId}/cancel`, {
      token: cancelled.buyer.token,
    });
    expect(res.body).toMatchObject({ code: 0, msg: '订单已取消' });
    expect(res.body.data.order).toMatchObject({ status: 'closed', closeReason: 'cancelled' });
    expect(wechat.trades.get(cancelled.orderId)?.state).toBe('CLOSED');

    // The buyer had scanned before the close and paid anyway: the money was taken, so it is credited and flagged.
    wechat.pay(cancelled.orderId, { afterClose: true });
    const late = await wechat.deliver(notifyUrl(), wechat.tradeNotice(cancelled.orderId));
    expect(late.status).toBe(204);
    expect(await balance(cancelled.buyer, cancelled.orderId)).toBe(cancelled.start + plan.credits);
    const detail = await ctx.app.call('GET', `/api/admin/orders/${cancelled.orderId}`, { token: ctx.admin });
    expect(detail.body.data.order).toMatchObject({ status: 'paid', review: expect.stringContaining('订单关闭后') });
  });

  it('refunds: takes the credits back once however often REFUND.SUCCESS repeats', async () => {
    const { buyer, orderId, start } = await buy();
    await payAtCashier(orderId);
    const refund = await ctx.app.call('POST', `/api/admin/orders/${orderId}/refund`, {
      token: ctx.admin,
      body: { amountFen: 990, reason: '用户申请退款' },
    });
    expect(refund.body.code, refund.body.msg).toBe(0);
    // WeChat answers PROCESSING; the unspent credits are taken back at once.
    expect(refund.body.data.refund).toMatchObject({
      status: 'processing',
      creditsTaken: plan.credits,
      creditsShort: 0,
    });
    expect(await balance(buyer, orderId)).toBe(start);
    const refundId: string = refund.body.data.refund.id;
    expect(wechat.refunds.get(refundId)).toMatchObject({ outTradeNo: orderId, refund: 990, reason: '用户申请退款' });

    wechat.settleRefund(refundId);
    const notice = wechat.refundNotice(refundId);
    for (let i = 0; i < 3; i++) expect((await wechat.deliver(notifyUrl(), notice)).status).toBe(204);
    expect(await balance(buyer, orderId)).toBe(start);
    const detail = await ctx.app.call('GET', `/api/admin/orders/${orderId}`, { token: ctx.admin });
    expect(detail.body.data.order).toMatchObject({ status: 'refunded', refundedFen: 990 });
    expect(detail.body.data.refunds).toEqual([expect.objectContaining({ id: refundId, status: 'succeeded' })]);
  });

  it('reconciles a correct day to an empty list, refunded trades (REFUND at WeChat) included', async () => {
    const { orderId } = await buy();
    await payAtCashier(orderId);
    const refunded = await buy();
    await payAtCashier(refunded.orderId);
    const refund = await ctx.app.call('POST', `/api/admin/orders/${refunded.orderId}/refund`, {
      token: ctx.admin,
      body: { amountFen: 495, reason: '部分退款' },
    });
    // WeChat shows the trade as REFUND while our refund is still processing.
    expect(refund.body.data.refund.status).toBe('processing');
    expect(wechat.trades.get(refunded.orderId)?.state).toBe('REFUND');
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const run = await ctx.app.call('POST', '/api/admin/payments/reconciliation', {
      token: ctx.admin,
      body: { date: today },
    });
    expect(run.body.code, run.body.msg).toBe(0);
    expect(run.body.data.checked).toBeGreaterThan(0);
    expect(run.body.data.mismatches).toEqual([]);

    // Refunded on the merchant platform, not through 订单管理: WeChat says REFUND and we know of no refund.
    wechat.trades.get(orderId)!.state = 'REFUND';
    const again = await ctx.app.call('POST', '/api/admin/payments/reconciliation', {
      token: ctx.admin,
      body: { date: today },
    });
    expect(again.body.data.mismatches).toEqual([expect.objectContaining({ orderId, kind: 'not_paid_at_channel' })]);
    wechat.trades.get(orderId)!.state = 'SUCCESS';
  });
});
