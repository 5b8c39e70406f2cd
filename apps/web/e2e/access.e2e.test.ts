import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  createInviteCode,
  launchBrowser,
  newPage,
  registerUserViaApi,
  screenshot,
  startServer,
  type TestServer,
} from './harness';
import { dialog, loginWithAccount, openLogin, visible } from './ui';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('model management access (canReadDashboard)', () => {
  it('shows a non-admin the 403 page instead of 模型管理', async () => {
    const user = await registerUserViaApi(server, { inviteCode: await createInviteCode(server) });
    const { context, page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/`);
    await openLogin(page);
    await loginWithAccount(page, user.account, user.password);
    await page.waitForURL('**/draw');

    await page.goto(`${server.baseUrl}/model`);
    await visible(page.getByText('抱歉，你无权访问该页面'));
    expect(await page.getByRole('heading', { name: '模型管理' }).count()).toBe(0);
    expect(await page.locator('.hf-nav').getByText('管理后台').count()).toBe(0);
    await screenshot(page, 'forbidden-403');

    await page.goto(`${server.baseUrl}/admin/inviteCodes`);
    await visible(page.getByText('抱歉，你无权访问该页面'));
    await context.close();
  });

  it('shows an admin 模型管理 and the invite codes', async () => {
    const inviteCode = await createInviteCode(server);
    const { context, page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/`);
    await openLogin(page);
    await loginWithAccount(page, ADMIN.account, ADMIN.password);
    // The seeded admin has no invite yet, so the invite step comes first; declining goes to /omnibus.
    const invite = dialog(page, '填写邀请码');
    await visible(invite);
    await invite.getByRole('button', { name: '暂不填写' }).click();
    await page.waitForURL('**/omnibus');

    await page.goto(`${server.baseUrl}/model`);
    await visible(page.getByRole('heading', { name: '模型管理' }));
    expect(await page.getByText('抱歉，你无权访问该页面').count()).toBe(0);
    await visible(page.locator('.hf-nav').getByText('管理后台'));

    await page.goto(`${server.baseUrl}/admin/inviteCodes`);
    await visible(page.getByRole('heading', { name: '邀请码' }));
    await visible(page.locator('.ant-table-row', { hasText: inviteCode }));
    await screenshot(page, 'admin-invite-codes');
    await context.close();
  });
});
