import { describe, expect, it } from 'vitest';
import { ADMIN, invitedUserOnDraw, loggedInOnDraw, screenshot, setupJourney } from './harness';
import { chooseUserMenuItem, dialog, openAdminPage, sidewaysOverflow, visible } from './ui';

/**
 * The payment screens on a server with no payment channel configured (what every install starts with): 套餐商店
 * keeps its 帮助与反馈 way and sells nothing online, 我的订单 is empty and leads to the store, and the admin's
 * 订单管理 and 对账 show their empty states; at phone and desktop sizes nothing scrolls sideways.
 */
const journey = setupJourney();

describe('Payments screens without a channel', () => {
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
