import { beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  invitedUserOnDraw,
  newPage,
  type RegisteredUser,
  randomSuffix,
  registerInvitedUser,
  setupJourney,
  waitForSmsResend,
} from './harness';
import {
  chooseTab,
  dialog,
  hidden,
  logInWhenAsked,
  loginDialog,
  loginWithAccount,
  openLogin,
  pathname,
  storedToken,
  visible,
} from './ui';

const journey = setupJourney();
/** Registered first: the server allows one code per mobile per 60 s, and 忘记密码 needs a second one. */
let forgetfulUser: RegisteredUser;

beforeAll(async () => {
  forgetfulUser = await registerInvitedUser(journey.server);
});

describe('password login and password change', () => {
  it('signs out everywhere after 修改密码, and the old token no longer works', async () => {
    const { server } = journey;
    const { user, context, page } = await invitedUserOnDraw(journey);
    await visible(page.locator('.hf-user-name', { hasText: user.nickname }));
    const oldToken = await storedToken(page);
    expect(oldToken).toBeTruthy();

    await page.locator('.hf-user-trigger').click();
    await page.getByRole('menuitem', { name: '修改密码' }).click();
    const change = dialog(page, '修改密码');
    await visible(change);
    await visible(change.getByText('修改后所有设备都需要用新密码重新登录，你的所有个人 API 密钥也将被吊销。'));
    const newPassword = `Changed${randomSuffix(4)}7`;
    await change.getByPlaceholder('请输入原密码').fill(user.password);
    await change.getByPlaceholder('8–32 位，需同时包含字母和数字').fill(newPassword);
    await change.getByPlaceholder('请再次输入密码').fill(newPassword);
    await change.getByRole('button', { name: '修改密码' }).click();

    // Back to the login state: on /, the login dialog open with the reason, no session stored.
    const login = loginDialog(page);
    await visible(login);
    await visible(login.getByText('密码已修改，请重新登录'));
    expect(pathname(page)).toBe('/');
    await visible(page.locator('.hf-header-right').getByRole('button', { name: '登录' }));
    expect(await storedToken(page)).toBeNull();

    // The server revoked the token the page held before the change.
    const stale = await api(server, 'GET', '/api/user/currentUser', { token: oldToken ?? '' });
    expect(stale.status).toBe(401);

    // Reloading a protected page without a session lands on login.
    await page.goto(`${server.baseUrl}/draw`);
    await visible(loginDialog(page));
    expect(pathname(page)).toBe('/');

    // A tab that still holds the old token is sent to login by the server's 401.
    await page.evaluate((token) => window.localStorage.setItem('Authorization', token), oldToken ?? '');
    await page.goto(`${server.baseUrl}/draw`);
    await visible(loginDialog(page));
    await page.waitForURL((url) => url.pathname === '/');
    expect(await storedToken(page)).toBeNull();

    // The new password works.
    await loginWithAccount(page, user.account, newPassword);
    await page.waitForURL('**/draw');
    await visible(page.locator('.hf-user-name', { hasText: user.nickname }));
    await context.close();
  });

  it('resets a forgotten password with a code to the mobile', async () => {
    const { server, browser } = journey;
    const { context, page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/`);
    const login = await openLogin(page);
    // 忘记密码 is on 账号登录; the box opens on 手机登录.
    await chooseTab(login.getByRole('tab', { name: '账号登录' }));
    await login.getByRole('button', { name: '忘记密码' }).click();
    const reset = dialog(page, '找回密码');
    await visible(reset);
    await waitForSmsResend(forgetfulUser);

    await reset.getByPlaceholder('请输入注册时的手机号').fill(forgetfulUser.mobile);
    const code = server.waitForSmsCode(forgetfulUser.mobile);
    await reset.getByRole('button', { name: '获取验证码' }).click();
    await reset.getByPlaceholder('6 位验证码').fill(await code);
    await reset.getByRole('button', { name: '下一步' }).click();

    await visible(reset.getByText('重置后所有设备都需要用新密码重新登录，你的所有个人 API 密钥也将被吊销。'));
    const newPassword = `Reset${randomSuffix(4)}5`;
    await reset.getByPlaceholder('8–32 位，需同时包含字母和数字').fill(newPassword);
    await reset.getByPlaceholder('请再次输入密码').fill(newPassword);
    await reset.getByRole('button', { name: '确认修改' }).click();
    await hidden(reset);
    await logInWhenAsked(page, forgetfulUser.account, newPassword);
    await page.waitForURL('**/draw');
    await visible(page.locator('.hf-user-name', { hasText: forgetfulUser.nickname }));
    const stale = await api(server, 'GET', '/api/user/currentUser', { token: forgetfulUser.token });
    expect(stale.status).toBe(401);
    await context.close();
  });
});
