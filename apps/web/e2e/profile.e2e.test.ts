import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  adminToken,
  api,
  newPage,
  type RegisteredUser,
  randomMobile,
  randomSuffix,
  registerInvitedUser,
  screenshot,
  setupJourney,
  waitForSmsResend,
} from './harness';
import { chooseUserMenuItem, dialog, hidden, logInFromHome, storedToken, toast, visible } from './ui';

/** A 1×1 PNG, enough for the server to accept and re-encode it. */
const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

// A server of its own: it binds a mobile to the admin's account.
const journey = setupJourney({ ownServer: true });
/** Registered first: the server allows one code per mobile per 60 s, and the unbind test needs a second one. */
let rebindUser: RegisteredUser;

beforeAll(async () => {
  rebindUser = await registerInvitedUser(journey.server);
});

/** Waits for a toast and for it to leave: the app shows one toast at a time and drops others meanwhile. */
async function seeToast(page: Page, text: string) {
  await visible(toast(page, text));
  await hidden(toast(page, text), 10_000);
}

async function loginAs(page: Page, account: string, password: string) {
  await logInFromHome(page, journey.server.baseUrl, account, password);
  await seeToast(page, '登录成功');
}

async function bindNewMobile(page: Page): Promise<string> {
  const bind = dialog(page, '绑定手机');
  await visible(bind);
  const mobile = randomMobile();
  await bind.getByPlaceholder('请输入手机号').fill(mobile);
  const code = journey.server.waitForSmsCode(mobile);
  await bind.getByRole('button', { name: '获取验证码' }).click();
  await visible(bind.getByRole('button', { name: /秒后重发/ }));
  await bind.getByPlaceholder('6 位验证码').fill(await code);
  await bind.getByRole('button', { name: '绑定' }).click();
  await hidden(bind);
  await seeToast(page, '绑定成功');
  return mobile;
}

const masked = (mobile: string) => `${mobile.slice(0, 3)}****${mobile.slice(7)}`;

describe('account menu', () => {
  it('edits nickname and avatar and sends feedback', async () => {
    const { server, browser } = journey;
    const user = await registerInvitedUser(server);
    const { context, page } = await newPage(browser);
    await loginAs(page, user.account, user.password);
    await page.waitForURL('**/draw');

    // 修改昵称: Enter submits, the header follows.
    const nickname = `新名${randomSuffix(3)}`;
    await chooseUserMenuItem(page, '修改昵称');
    const nicknameDialog = dialog(page, '修改昵称');
    await nicknameDialog.getByPlaceholder('2–16 个字符').fill(nickname);
    await nicknameDialog.getByPlaceholder('2–16 个字符').press('Enter');
    await visible(page.locator('.hf-user-name', { hasText: nickname }));
    await seeToast(page, '设置成功');

    // 修改头像: an uploaded image is previewed, then becomes the header avatar.
    await chooseUserMenuItem(page, '修改头像');
    const avatarDialog = dialog(page, '修改头像');
    await avatarDialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: PNG_1PX });
    await visible(avatarDialog.locator('img[alt="头像预览"]'));
    await screenshot(page, 'avatar-dialog');
    await avatarDialog.getByRole('button', { name: '保存' }).click();
    await hidden(avatarDialog);
    const headerAvatar = page.locator('.hf-user-trigger img');
    await visible(headerAvatar);
    expect(await headerAvatar.getAttribute('src')).toMatch(/^\/api\/files\//);
    await seeToast(page, '设置成功');

    // 帮助与反馈: the server's own reply is shown, and the admin list has the request.
    await chooseUserMenuItem(page, '帮助与反馈');
    const help = dialog(page, '帮助与反馈');
    await help.locator('.ant-select').click();
    await page.locator('.ant-select-item-option').first().click();
    await help.getByPlaceholder(/请描述你遇到的问题/).fill('生成的图片有点模糊，希望能更清晰');
    await help.getByRole('button', { name: '提交' }).click();
    await visible(toast(page, '提交成功，我们会尽快响应'));
    await hidden(help);
    const requests = await api<{ list: { content: string }[] }>(
      server,
      'GET',
      '/api/admin/help?current=1&pageSize=10',
      {
        token: await adminToken(server),
      },
    );
    expect(requests.data.list.map((item) => item.content)).toContain('生成的图片有点模糊，希望能更清晰');
    await context.close();
  });

  it('binds a mobile for an account without one', async () => {
    const { server, browser } = journey;
    const { context, page } = await newPage(browser);
    await loginAs(page, ADMIN.account, ADMIN.password);
    await page.waitForURL('**/draw');

    await chooseUserMenuItem(page, '绑定手机');
    const mobile = await bindNewMobile(page);
    const me = await api<{ mobile: string }>(server, 'GET', '/api/user/currentUser', {
      token: (await storedToken(page)) ?? '',
    });
    expect(me.data.mobile).toBe(masked(mobile));
    await page.locator('.hf-user-trigger').click();
    await visible(page.getByRole('menuitem', { name: '解绑手机' }));
    await context.close();
  });

  it('unbinds with a code sent to the full current mobile, then binds another', async () => {
    const { server, browser } = journey;
    const { context, page } = await newPage(browser);
    await loginAs(page, rebindUser.account, rebindUser.password);
    await page.waitForURL('**/draw');
    await waitForSmsResend(rebindUser);

    await chooseUserMenuItem(page, '解绑手机');
    const unbind = dialog(page, '解绑手机');
    await visible(unbind.getByText(masked(rebindUser.mobile)));
    await unbind.getByPlaceholder('请输入完整的手机号').fill(rebindUser.mobile);
    const code = server.waitForSmsCode(rebindUser.mobile);
    await unbind.getByRole('button', { name: '获取验证码' }).click();
    await unbind.getByPlaceholder('6 位验证码').fill(await code);
    await unbind.getByRole('button', { name: '确认解绑' }).click();
    await seeToast(page, '解绑成功');

    const mobile = await bindNewMobile(page);
    const me = await api<{ mobile: string }>(server, 'GET', '/api/user/currentUser', {
      token: (await storedToken(page)) ?? '',
    });
    expect(me.data.mobile).toBe(masked(mobile));
    await context.close();
  });
});
