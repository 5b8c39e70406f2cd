import { AUDIT_CSV_HEADERS, type AuditEntry, type Page as PageOf } from '@huafang/contracts';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  ADMIN,
  adminToken,
  api,
  downloadedText,
  invitedUserOnDraw,
  loggedInOnDraw,
  type RegisteredUser,
  registerInvitedUser,
  type ScreenName,
  screenshot,
  setupJourney,
} from './harness';
import { hidden, openAdminPage, press, sidewaysOverflow, visible } from './ui';

const journey = setupJourney();

const masked = (mobile: string) => `${mobile.slice(0, 3)}****${mobile.slice(-4)}`;

/** The user logs in with their password from their own client, as the app does. */
async function userLogsIn(user: RegisteredUser): Promise<void> {
  const { server } = journey;
  const answer = await api(server, 'POST', '/api/auth/account', {
    body: { account: user.account, password: user.password },
  });
  expect(answer.code).toBe(0);
  // The trail is written in batches a moment later: wait until the entry is there before looking for it.
  const token = await adminToken(server);
  await expect
    .poll(
      async () =>
        (
          await api<PageOf<AuditEntry>>(server, 'GET', `/api/admin/audit-log?mobile=${user.mobile}&action=auth.login`, {
            token,
          })
        ).data.total,
      { timeout: 10_000 },
    )
    .toBeGreaterThan(0);
}

/** 审计日志 from the admin menu: in the side menu on a desktop, behind 后台菜单 on a phone. */
function openAuditLog(page: Page, screen: ScreenName): Promise<void> {
  return openAdminPage(page, journey.server.baseUrl, screen, '审计日志', '/admin/audit-log');
}

/** Types `value` into a text field until it holds it: on a loaded machine a fill can land while the form redraws. */
async function typeInto(field: Locator, value: string): Promise<void> {
  await expect
    .poll(
      async () => {
        if ((await field.inputValue()) !== value) await field.fill(value);
        return field.inputValue();
      },
      { timeout: 15_000 },
    )
    .toBe(value);
}

/**
 * 操作类型 from the keyboard: typing narrows the long list to the one action, Enter picks it. A pick lost while the
 * list was still opening is made again, as a person would.
 */
async function chooseKind(page: Page, label: string): Promise<void> {
  const kind = page.getByRole('combobox', { name: '操作类型' });
  const chosen = page
    .locator('.ant-form-item')
    .filter({ hasText: '操作类型' })
    .getByText(label, { exact: true })
    .filter({ visible: true });
  for (let attempt = 0; attempt < 5; attempt++) {
    await kind.fill(label);
    try {
      await visible(page.locator('.ant-select-item-option-active', { hasText: label }), 3_000);
      await kind.press('Enter');
      await visible(chosen, 3_000);
      return;
    } catch {
      // The list had not opened, or Enter came before it did: type again.
    }
  }
  await visible(chosen);
}

/** The entries on screen: table rows on a desktop, cards on a phone. */
function entries(page: Page, screen: ScreenName): Locator {
  return screen === 'desktop'
    ? page.locator('.ant-table-row')
    : page.getByRole('list', { name: '审计日志' }).getByRole('listitem');
}

describe('审计日志', () => {
  for (const screen of ['desktop', 'phone'] as const) {
    it(`lets an admin find a user's login, read its detail and export the entries as CSV at ${screen} size`, async () => {
      const { server } = journey;
      const user = await registerInvitedUser(server);
      await userLogsIn(user);

      const { context, page } = await loggedInOnDraw(journey, ADMIN, screen);
      await openAuditLog(page, screen);
      // Unfiltered, the newest entries show at once (at least the admin's own login).
      await visible(entries(page, screen));

      // A part of a mobile number: the contract's message under the field, nothing sent.
      const mobile = page.getByLabel('手机号');
      await mobile.fill('1380013');
      await mobile.press('Enter');
      await visible(page.locator('.ant-form-item-explain-error', { hasText: '请输入 11 位手机号' }));

      // The user's mobile and 登录成功, searched with Enter from the text field.
      await typeInto(mobile, user.mobile);
      await chooseKind(page, '登录成功');
      expect(await mobile.inputValue()).toBe(user.mobile);
      await mobile.press('Enter');
      await hidden(page.locator('.ant-form-item-explain-error'));
      const found = entries(page, screen);
      await expect.poll(() => found.filter({ hasNotText: masked(user.mobile) }).count()).toBe(0);
      await visible(found.filter({ hasText: '登录成功' }).filter({ hasText: masked(user.mobile) }));
      expect(await found.filter({ hasNotText: '登录成功' }).count()).toBe(0);
      // Only the masked number is ever shown.
      expect(await page.getByText(user.mobile).count()).toBe(0);
      await screenshot(page, `${screen}-audit-log`);

      // The detail in words: how the user logged in and with which account.
      const first = found.first();
      await press(screen, first.getByRole('button', { name: screen === 'desktop' ? '查看' : '详情' }));
      const drawer = page.locator('.ant-drawer').filter({ hasText: '日志详情' });
      await visible(drawer.getByText('账号密码', { exact: true }));
      await visible(drawer.getByText(user.account, { exact: true }));
      await visible(drawer.getByText('auth.login', { exact: true }));
      await screenshot(page, `${screen}-audit-log-detail`);
      await press(screen, drawer.getByRole('button', { name: '关闭' }));
      await hidden(drawer.locator('.ant-drawer-content'));

      // 导出 CSV: the same filter as a file, Chinese headers first.
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 30_000 }),
        press(screen, page.getByRole('button', { name: '导出 CSV' })),
      ]);
      expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = await downloadedText(download);
      const lines = csv.split('\r\n').filter(Boolean);
      expect(lines[0]).toBe(`\uFEFF${AUDIT_CSV_HEADERS.join(',')}`);
      expect(lines.length).toBeGreaterThan(1);
      for (const line of lines.slice(1)) {
        expect(line).toContain(',登录成功,auth.login,');
        expect(line).toContain(masked(user.mobile));
      }

      // The export itself is in the trail, as the admin's.
      await press(screen, page.getByRole('button', { name: '重置' }));
      await chooseKind(page, '导出审计日志');
      await expect
        .poll(
          async () => {
            await press(screen, page.getByRole('button', { name: '查询' }));
            await page.waitForLoadState('networkidle');
            return found.filter({ hasText: '导出审计日志' }).filter({ hasText: '管理员' }).count();
          },
          { timeout: 15_000 },
        )
        .toBeGreaterThan(0);

      // Nothing matches: the empty state says so. On a phone the rarer filters are behind 更多条件.
      if (screen === 'phone') await press(screen, page.getByRole('button', { name: '更多条件' }));
      await page.getByLabel('IP 地址').fill('203.0.113.99');
      await page.getByLabel('IP 地址').press('Enter');
      await visible(page.getByText('没有符合条件的记录'));
      if (screen === 'phone') expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await context.close();
    });
  }

  it('narrows by a typed date range from the keyboard', async () => {
    const { context, page } = await loggedInOnDraw(journey, ADMIN, 'desktop');
    await openAuditLog(page, 'desktop');
    // Today as the product counts days: in Beijing time (DISPLAY_TIME_ZONE), whatever the browser's zone.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());

    // A day long past: nothing. Typed into the two boxes, Enter after each, Enter again to search.
    await page.getByLabel('日期范围').click();
    await page.keyboard.type('2020-01-01');
    await page.keyboard.press('Enter');
    await page.keyboard.type('2020-01-02');
    await page.keyboard.press('Enter');
    await page.getByLabel('手机号').press('Enter');
    await visible(page.getByText('没有符合条件的记录'));

    // Today: the admin's own login of a moment ago.
    await page.getByRole('button', { name: '重置' }).click();
    await page.getByLabel('日期范围').click();
    await page.keyboard.type(today);
    await page.keyboard.press('Enter');
    await page.keyboard.type(today);
    await page.keyboard.press('Enter');
    await page.getByLabel('手机号').press('Enter');
    await visible(entries(page, 'desktop').filter({ hasText: '登录成功' }).filter({ hasText: '管理员' }));
    await context.close();
  });

  it('is for admins only', async () => {
    const { context, page } = await invitedUserOnDraw(journey, 'phone');
    await page.goto(`${journey.server.baseUrl}/admin/audit-log`);
    await visible(page.getByText('抱歉，你无权访问该页面'));
    expect(await page.getByRole('heading', { name: '审计日志' }).count()).toBe(0);
    await context.close();
  });
});
