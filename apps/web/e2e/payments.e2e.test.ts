import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlipayDouble } from '../../server/test/doubles/alipay-double';
import { ADMIN, adminToken, api, invitedUserOnDraw, loggedInOnDraw, screenshot, setupJourney } from './harness';
import { chooseUserMenuItem, dialog, openAdminPage, sidewaysOverflow, visible } from './ui';

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

  const creditsOf = async (token: string) =>
    (await api<{ credits: number }>(journey.server, 'GET', '/api/user/currentUser', { token })).data.credits;

  /** 套餐商店 → the first plan → 支付宝 → 立即支付. */
  async function buy(page: Page, screen: string): Promise<{ planName: string; credits: number }> {
    await chooseUserMenuItem(page, '套餐商店');
    const store = dialog(page, '套餐商店');
    const plan = store.getByRole('article').first();
    await visible(plan);
    const planName = (await plan.getByRole('heading').textContent()) ?? '';
    const credits = Number((await plan.locator('.hf-plan-credits').textContent())?.replace(/\D/g, ''));
    await visible(plan.getByText('有效期 30 天'));
    await screenshot(page, `${screen}-store-validity`);
    await plan.getByRole('button', { name: `购买${planName}` }).click();
    const pay = store.getByRole('button', { name: /^立即支付/ });
    await visible(pay);
    // The only configured channel is chosen already.
    expect(await store.getByRole('radio', { name: '支付宝' }).isChecked()).toBe(true);
    await pay.click();
    return { planName, credits };
  }

  for (const screen of ['desktop', 'phone'] as const) {
    it(`on the ${screen}: Alipay's page, back to the result, 我的订单, then an admin refunds it`, async () => {
      const { user, context, page } = await invitedUserOnDraw(journey, screen);
      const before = await creditsOf(user.token);
      const { planName, credits } = await buy(page, screen);
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
      await visible(page.getByText('支付成功'), 30_000);
      await visible(page.locator('.hf-pay-result-balance').getByText(String(before + credits)));
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `${screen}-pay-result`);

      await chooseUserMenuItem(page, '我的订单');
      const row = page.getByRole('listitem', { name: `订单 ${orderId}` });
      await visible(row.getByText('已支付'));
      await visible(row.getByText(planName));
      await visible(row.getByText(/有效期 30 天/));
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `${screen}-my-orders`);

      await chooseUserMenuItem(page, '算力明细');
      await visible(page.getByText(new RegExp(`^${credits} 算力将于 \\d{4}-\\d{2}-\\d{2} 过期$`)));
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `${screen}-credits-expiring`);
      await context.close();

      const admin = await loggedInOnDraw(journey, ADMIN, screen);
      await openAdminPage(admin.page, journey.server.baseUrl, screen, '订单管理', '/admin/orders');
      await admin.page.getByRole('button', { name: `订单详情 ${orderId}` }).click();
      const drawer = dialog(admin.page, '订单详情');
      await visible(drawer.getByText('订单支付成功'));
      await drawer.getByRole('button', { name: '退款' }).click();
      const refund = dialog(admin.page, '退款');
      await visible(refund.getByText(`本次退款将收回 ${credits} 点未使用的算力`));
      await refund.getByLabel('退款原因').fill('旅程测试退款');
      await refund.getByRole('button', { name: '退款', exact: true }).click();
      await admin.page.getByRole('button', { name: '确认退款' }).click();
      await visible(drawer.getByText('已退款').first());
      expect(await sidewaysOverflow(admin.page)).toBeLessThanOrEqual(0);
      await screenshot(admin.page, `${screen}-admin-refund`);
      await admin.context.close();
      expect(await creditsOf(user.token)).toBe(before);
    });
  }
});
