import { createVerify } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlipayDouble } from '../../server/test/doubles/alipay-double';
import {
  newWechatPayAccount,
  startWechatPayDouble,
  type WechatPayDouble,
} from '../../server/test/doubles/wechatpay-double';
import {
  ADMIN,
  adminToken,
  api,
  invitedUserOnDraw,
  type Journey,
  loggedInOnDraw,
  type ScreenName,
  screenshot,
  setupJourney,
} from './harness';
import { chooseUserMenuItem, confirmation, confirmWith, dialog, openAdminPage, sidewaysOverflow, visible } from './ui';

/**
 * The payment screens on a server with no payment channel configured (what every install starts with): 套餐商店
 * keeps its 帮助与反馈 way and sells nothing online, 我的订单 is empty and leads to the store, and the admin's
 * 订单管理 and 对账 show their empty states; at phone and desktop sizes nothing scrolls sideways.
 */
describe('Payments screens without a channel', () => {
  const journey = setupJourney();

  for (const screen of ['desktop', 'phone'] as const) {
    it(`shows 套餐商店, 我的订单 and 订单管理 empty and whole at ${screen} size`, async () => {
      const { context, page } = await invitedUserOnDraw(journey, screen);
      await chooseUserMenuItem(page, '套餐商店');
      const store = dialog(page, '套餐商店');
      await visible(store.getByRole('article').first());
      await visible(store.getByRole('button', { name: '帮助与反馈' }));
      expect(await store.getByRole('button', { name: /^购买/ }).count()).toBe(0);
      await visible(store.getByText(/^¥\d+\.\d{2}$/).first());
      await store.getByRole('button', { name: '关闭', exact: true }).click();

      await chooseUserMenuItem(page, '我的订单');
      await visible(page.getByRole('heading', { name: '我的订单' }));
      await visible(page.getByText('还没有订单'));
      await page.getByRole('button', { name: '去套餐商店' }).click();
      await visible(dialog(page, '套餐商店'));
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `${screen}-orders-empty`);
      await context.close();

      const admin = await loggedInOnDraw(journey, ADMIN, screen);
      await openAdminPage(admin.page, journey.server.baseUrl, screen, '订单管理', '/admin/orders');
      await visible(admin.page.getByRole('form', { name: '筛选订单' }));
      await visible(admin.page.getByText(/暂无订单|没有符合条件的订单/).first());
      expect(await sidewaysOverflow(admin.page)).toBeLessThanOrEqual(0);
      await screenshot(admin.page, `${screen}-admin-orders`);
      await admin.page.getByRole('tab', { name: '对账' }).click();
      await visible(admin.page.getByText(/尚未对账|对账一致/).first());
      expect(await sidewaysOverflow(admin.page)).toBeLessThanOrEqual(0);
      await admin.context.close();
    });
  }
});

const creditsOf = async (journey: Journey, token: string) =>
  (await api<{ credits: number }>(journey.server, 'GET', '/api/user/currentUser', { token })).data.credits;

/**
 * 套餐商店 → the first plan → `channel` → 立即支付: the plan's name and the credits it brings. With `validity`, the
 * plan's card must say how long its credits last (on `screen`'s screenshot).
 */
async function buyFirstPlan(
  page: Page,
  channel: string,
  validity?: { days: number; screen: ScreenName },
): Promise<{ planName: string; credits: number }> {
  await chooseUserMenuItem(page, '套餐商店');
  const store = dialog(page, '套餐商店');
  const plan = store.getByRole('article').first();
  await visible(plan);
  const planName = (await plan.getByRole('heading').textContent()) ?? '';
  const credits = Number((await plan.locator('.hf-plan-credits').textContent())?.replace(/\D/g, ''));
  if (validity) {
    await visible(plan.getByText(`有效期 ${validity.days} 天`));
    await screenshot(page, `${validity.screen}-store-validity`);
  }
  await plan.getByRole('button', { name: `购买${planName}` }).click();
  const pay = store.getByRole('button', { name: /^立即支付/ });
  await visible(pay);
  // The only configured channel is chosen already.
  expect(await store.getByRole('radio', { name: channel }).isChecked()).toBe(true);
  await pay.click();
  return { planName, credits };
}

/** The result page with the new balance, then the order as 已支付 in 我的订单. */
async function seePaid(
  page: Page,
  screen: ScreenName,
  prefix: string,
  order: { id: string; planName: string; balance: number; validityDays?: number },
) {
  await visible(page.getByText('支付成功'), 30_000);
  await visible(page.locator('.hf-pay-result-balance').getByText(String(order.balance)));
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await screenshot(page, `${prefix}${screen}-pay-result`);

  await chooseUserMenuItem(page, '我的订单');
  const row = page.getByRole('listitem', { name: `订单 ${order.id}` });
  await visible(row.getByText('已支付'));
  await visible(row.getByText(order.planName));
  if (order.validityDays) await visible(row.getByText(new RegExp(`有效期 ${order.validityDays} 天`)));
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await screenshot(page, `${prefix}${screen}-my-orders`);
}

/**
 * An admin refunds the whole order in 订单管理, which takes back the plan's credits. `settle` is the channel's part
 * when its refund is not done at once (WeChat answers PROCESSING, then notifies): the open order shows it arrive.
 */
async function refundInAdmin(
  journey: Journey,
  screen: ScreenName,
  prefix: string,
  order: { id: string; credits: number },
  settle?: () => Promise<void>,
) {
  const admin = await loggedInOnDraw(journey, ADMIN, screen);
  await openAdminPage(admin.page, journey.server.baseUrl, screen, '订单管理', '/admin/orders');
  await admin.page.getByRole('button', { name: `订单详情 ${order.id}` }).click();
  const drawer = dialog(admin.page, '订单详情');
  await visible(drawer.getByText('订单支付成功'));
  await drawer.getByRole('button', { name: '退款' }).click();
  const refund = dialog(admin.page, '退款');
  await visible(refund.getByText(`本次退款将收回 ${order.credits} 点未使用的算力`));
  await refund.getByLabel('退款原因').fill('旅程测试退款');
  await refund.getByRole('button', { name: '退款', exact: true }).click();
  await confirmWith(confirmation(admin.page, '退款提交后不能撤销'), '确认退款');
  if (settle) {
    await visible(drawer.getByText('退款中'));
    await settle();
  }
  // The refund's own row, and the order's status (not the 已退款 amount's label).
  await visible(drawer.getByText('退款成功'));
  await visible(drawer.getByRole('row', { name: /^状态/ }).getByText('已退款'));
  expect(await sidewaysOverflow(admin.page)).toBeLessThanOrEqual(0);
  await screenshot(admin.page, `${prefix}${screen}-admin-refund`);
  await admin.context.close();
}

/**
 * Buying a plan with 支付宝 through the gateway double, as the buyer does it: 套餐商店 → 支付宝 → Alipay's page (电脑网站支付
 * on a desktop, 手机网站支付 on a phone: the double's cashier, where the test pays and the double sends the signed
 * notification) → back to the result page with the new balance → 我的订单 → an admin refunds it in 订单管理.
 */
describe('Buying a plan with 支付宝', () => {
  const alipay = new AlipayDouble();
  beforeAll(async () => {
    await alipay.start();
  });
  afterAll(() => alipay.close());
  // The channel is the whole server's; PUBLIC_BASE_URL is the server's own address (notify_url, return_url).
  const journey = setupJourney({
    ownServer: () => ({
      PUBLIC_BASE_URL: '{baseUrl}',
      ALIPAY_APP_ID: alipay.appId,
      ALIPAY_PRIVATE_KEY: alipay.app.privateKey,
      ALIPAY_PUBLIC_KEY: alipay.alipay.publicKey,
      ALIPAY_SELLER_ID: alipay.sellerId,
      ALIPAY_GATEWAY: `${alipay.url}/gateway.do`,
    }),
  });

  // The first plan's credits last 30 days: its card says so and 算力明细 names the day they expire.
  beforeAll(async () => {
    const token = await adminToken(journey.server);
    const plans = await api<Array<Record<string, unknown>>>(journey.server, 'GET', '/api/admin/combos', { token });
    const { id, ...plan } = plans.data[0] ?? {};
    const saved = await api(journey.server, 'PUT', `/api/admin/combos/${String(id)}`, {
      token,
      body: { ...plan, validityDays: 30 },
    });
    expect(saved.code, saved.msg).toBe(0);
  });

  for (const screen of ['desktop', 'phone'] as const) {
    it(`on the ${screen}: Alipay's page, back to the result, 我的订单, then an admin refunds it`, async () => {
      const { user, context, page } = await invitedUserOnDraw(journey, screen);
      const before = await creditsOf(journey, user.token);
      const { planName, credits } = await buyFirstPlan(page, '支付宝', { days: 30, screen });
      await page.waitForURL(`${alipay.url}/**`);
      await visible(page.getByText('支付宝收银台'));
      const sent = new URL(page.url());
      expect(sent.searchParams.get('method')).toBe(
        screen === 'desktop' ? 'alipay.trade.page.pay' : 'alipay.trade.wap.pay',
      );
      const orderId = (JSON.parse(sent.searchParams.get('biz_content') ?? '{}') as { out_trade_no: string })
        .out_trade_no;
      await alipay.pay(orderId);
      await page.goto(sent.searchParams.get('return_url') ?? '');
      await seePaid(page, screen, '', { id: orderId, planName, balance: before + credits, validityDays: 30 });

      await chooseUserMenuItem(page, '算力明细');
      await visible(page.getByText(new RegExp(`^${credits} 算力将于 \\d{4}-\\d{2}-\\d{2} 过期$`)));
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `${screen}-credits-expiring`);
      await context.close();

      await refundInAdmin(journey, screen, '', { id: orderId, credits });
      expect(await creditsOf(journey, user.token)).toBe(before);
    });
  }

  it('inside WeChat, where Alipay cannot open, asks to open the page in a browser', async () => {
    const { context, page } = await invitedUserOnDraw(journey, 'wechat');
    await chooseUserMenuItem(page, '套餐商店');
    const store = dialog(page, '套餐商店');
    const plan = store.getByRole('article').first();
    await visible(plan);
    const planName = (await plan.getByRole('heading').textContent()) ?? '';
    await plan.getByRole('button', { name: `购买${planName}` }).click();
    await visible(store.getByText('微信里暂不能在线支付：请点右上角「…」，选择「在浏览器打开」后购买'));
    expect(await store.getByRole('button', { name: /^立即支付/ }).isDisabled()).toBe(true);
    await screenshot(page, 'wechat-store-in-browser');
    await context.close();
  });
});

/**
 * Buying a plan with 微信支付 through the API v3 double: on a desktop the page draws the Native code_url as a QR code
 * with the time left, the test pays at the double's cashier (which sends the signed, encrypted notification) and the
 * page, polling the order, moves on to the result page by itself; on a phone the page opens h5_url (the double's H5
 * cashier) and comes back to the result page. Then 我的订单, and an admin refunds it (PROCESSING, then REFUND.SUCCESS).
 */
describe('Buying a plan with 微信支付', () => {
  let wechat: WechatPayDouble;
  beforeAll(async () => {
    wechat = await startWechatPayDouble(await newWechatPayAccount('public-key'));
  });
  afterAll(() => wechat?.close());
  const journey = setupJourney({ ownServer: () => ({ PUBLIC_BASE_URL: '{baseUrl}', ...wechat.env }) });

  /** The buyer pays at WeChat's cashier, and WeChat notifies the server. */
  async function payAtCashier(orderId: string) {
    const trade = wechat.pay(orderId);
    const delivery = await wechat.deliver(trade.notifyUrl, wechat.tradeNotice(orderId));
    expect(delivery.status, delivery.body).toBe(204);
  }

  async function settleRefund(orderId: string) {
    const refund = [...wechat.refunds.values()].find((r) => r.outTradeNo === orderId);
    if (!refund) throw new Error(`WeChat has no refund of ${orderId}`);
    wechat.settleRefund(refund.outRefundNo);
    const delivery = await wechat.deliver(refund.notifyUrl ?? '', wechat.refundNotice(refund.outRefundNo));
    expect(delivery.status, delivery.body).toBe(204);
  }

  it('on the desktop: a QR code with the time left, paid by scanning, the result, 我的订单, then a refund', async () => {
    const { user, context, page } = await invitedUserOnDraw(journey, 'desktop');
    const before = await creditsOf(journey, user.token);
    const { planName, credits } = await buyFirstPlan(page, '微信支付');
    const store = dialog(page, '套餐商店');
    const qr = store.getByRole('region', { name: '微信支付扫码支付' });
    await visible(qr.getByLabel('支付二维码'));
    await visible(qr.getByText(/剩余 1[45]:\d\d/));
    const orderId = ((await qr.getByText(/^订单号 /).textContent()) ?? '').replace('订单号 ', '').trim();
    expect(wechat.trades.get(orderId)?.tradeType).toBe('NATIVE');
    await screenshot(page, 'wechat-desktop-qrcode');
    await payAtCashier(orderId);
    // The page polls the order and leaves the code for the result page without a click.
    await page.waitForURL(`**/account/orders/${orderId}/result`, { timeout: 30_000 });
    await seePaid(page, 'desktop', 'wechat-', { id: orderId, planName, balance: before + credits });
    await context.close();

    await refundInAdmin(journey, 'desktop', 'wechat-', { id: orderId, credits }, () => settleRefund(orderId));
    expect(await creditsOf(journey, user.token)).toBe(before);
  });

  it('inside WeChat: the official account’s authorisation, WeChat’s payment sheet, the result and 我的订单', async () => {
    const { user, context, page } = await invitedUserOnDraw(journey, 'wechat');
    const before = await creditsOf(journey, user.token);
    // WeChat's browser injects WeixinJSBridge; here its payment sheet is the double's cashier, paid at once.
    const sheets: Record<string, string>[] = [];
    await page.exposeFunction('payAtWechatSheet', async (params: Record<string, string>) => {
      sheets.push(params);
      const prepayId = params.package?.replace('prepay_id=', '');
      const trade = [...wechat.trades.values()].find((t) => t.answer.prepay_id === prepayId);
      if (!trade) return 'fail';
      await payAtCashier(trade.outTradeNo);
      return 'ok';
    });
    await context.addInitScript(() => {
      const sheet = (window as unknown as { payAtWechatSheet(p: object): Promise<string> }).payAtWechatSheet;
      Object.assign(window, {
        WeixinJSBridge: {
          invoke: (_api: string, params: object, done: (res: { err_msg: string }) => void) =>
            void sheet(params).then((outcome) => done({ err_msg: `get_brand_wcpay_request:${outcome}` })),
        },
      });
    });
    const { planName, credits } = await buyFirstPlan(page, '微信支付');
    // The page went to the authorisation and came back with a code, then WeChat's sheet was paid.
    await page.waitForURL('**/account/orders/*/result', { timeout: 30_000 });
    const orderId = decodeURIComponent(new URL(page.url()).pathname.split('/')[3] ?? '');
    expect(wechat.trades.get(orderId)).toMatchObject({ tradeType: 'JSAPI', openid: wechat.account.openid });
    expect(sheets).toHaveLength(1);
    expect(sheets[0]).toMatchObject({ appId: wechat.account.mpAppId, signType: 'RSA' });
    // paySign is the merchant's RSA-SHA256 over appId, timeStamp, nonceStr and package, as WeChat checks it.
    const { appId, timeStamp, nonceStr, package: pkg, paySign } = sheets[0]!;
    const signed = createVerify('RSA-SHA256').update(`${appId}\n${timeStamp}\n${nonceStr}\n${pkg}\n`);
    expect(signed.verify(wechat.account.merchantPublicKey, paySign ?? '', 'base64')).toBe(true);
    await seePaid(page, 'wechat', '', { id: orderId, planName, balance: before + credits });
    await context.close();
  });

  it('on the phone: the H5 cashier, back to the result, 我的订单, then a refund', async () => {
    const { user, context, page } = await invitedUserOnDraw(journey, 'phone');
    const before = await creditsOf(journey, user.token);
    const { planName, credits } = await buyFirstPlan(page, '微信支付');
    await page.waitForURL(`${wechat.url}/**`);
    await visible(page.getByRole('heading', { name: '微信支付' }));
    const orderId = ((await page.getByText(/^订单号 /).textContent()) ?? '').replace('订单号 ', '').trim();
    expect(wechat.trades.get(orderId)?.tradeType).toBe('MWEB');
    await screenshot(page, 'wechat-phone-h5');
    await payAtCashier(orderId);
    await page.getByRole('link', { name: '已完成支付，返回商家' }).click();
    await seePaid(page, 'phone', 'wechat-', { id: orderId, planName, balance: before + credits });
    await context.close();

    await refundInAdmin(journey, 'phone', 'wechat-', { id: orderId, credits }, () => settleRefund(orderId));
    expect(await creditsOf(journey, user.token)).toBe(before);
  });
});
