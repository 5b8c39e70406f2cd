import { describe, expect, it } from 'vitest';
import { ADMIN, createInviteCode, invitedUserOnDraw, loggedInOnDraw, screenshot, setupJourney } from './harness';
import { dialog, visible } from './ui';

const journey = setupJourney();

describe('model management access (canReadDashboard)', () => {
  it('shows a non-admin the 403 page instead of 模型管理', async () => {
    const { server } = journey;
    const { context, page } = await invitedUserOnDraw(journey);

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
    const { server } = journey;
    const inviteCode = await createInviteCode(server);
    // Admins are never asked for an invite code: the login goes straight to /draw.
    const { context, page } = await loggedInOnDraw(journey, ADMIN);
    expect(await dialog(page, '填写邀请码').count()).toBe(0);

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
