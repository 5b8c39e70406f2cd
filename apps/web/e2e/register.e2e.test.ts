import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createInviteCode, newPage, randomMobile, randomSuffix, screenshot, setupJourney } from './harness';
import { chooseTab, dialog, hidden, loginDialog, openLogin, pathname, toast, toasts, visible } from './ui';

const journey = setupJourney();

/** Mobile login of a new number up to the 完善资料 dialog; returns that dialog. */
async function registerByMobile(page: Page, mobile: string, shots: boolean) {
  const { server } = journey;
  await page.goto(`${server.baseUrl}/`);
  await visible(page.getByText('让每一个想象，都跃然纸上'));
  if (shots) await screenshot(page, 'home');

  const login = await openLogin(page);
  await chooseTab(login.getByRole('tab', { name: '手机登录' }));
  await login.getByPlaceholder('请输入手机号').fill(mobile);
  if (shots) await screenshot(page, 'login-dialog');

  const codePromise = server.waitForSmsCode(mobile);
  await login.getByRole('button', { name: '获取验证码' }).click();
  const code = await codePromise;
  await visible(login.getByRole('button', { name: /秒后重发/ }));
  await login.getByPlaceholder('6 位验证码').fill(code);
  await login.getByPlaceholder('6 位验证码').press('Enter');

  const register = dialog(page, '注册账号');
  await visible(register);
  // Mobile login answers 405 with the server's message, which the app shows.
  await visible(toast(page, '该手机号尚未注册'));
  await hidden(loginDialog(page));
  if (shots) await screenshot(page, 'register-dialog');

  const password = `Huafang${randomSuffix(4)}9`;
  await register.getByPlaceholder('8–32 位，需同时包含字母和数字').fill(password);
  await register.getByPlaceholder('请再次输入密码').fill(password);
  await register.getByRole('button', { name: '注册' }).click();

  const profile = dialog(page, '完善资料');
  await visible(profile);
  return profile;
}

describe('new user by mobile', () => {
  it('registers with an invite code and lands on /draw with the nickname in the header', async () => {
    const inviteCode = await createInviteCode(journey.server);
    const { context, page } = await newPage(journey.browser);
    const mobile = randomMobile();
    const nickname = `小画${randomSuffix(3)}`;

    const profile = await registerByMobile(page, mobile, true);
    await profile.getByPlaceholder('2–16 个字符').fill(nickname);
    await profile.getByPlaceholder('请输入邀请码').fill(inviteCode);
    await screenshot(page, 'profile-dialog');
    await profile.getByRole('button', { name: '完成' }).click();

    await page.waitForURL('**/draw');
    expect(pathname(page)).toBe('/draw');
    await visible(page.locator('.hf-user-name', { hasText: nickname }));
    await visible(page.locator('.hf-credits', { hasText: /剩余 \d+ 点/ }));
    // Invite code type 01 shows the draw guidance.
    const guidance = dialog(page, '新手引导');
    await visible(guidance);
    await guidance.getByRole('button', { name: '开始创作' }).click();
    await hidden(guidance);
    // Then the tour over task selection, the prompt editor and 生成.
    const tour = page.locator('.ant-tour');
    await visible(tour.getByText('第一步：选择任务和模板'));
    await tour.locator('.ant-tour-next-btn').click();
    await visible(tour.getByText('第二步：编辑提示词'));
    await tour.locator('.ant-tour-next-btn').click();
    await visible(tour.getByText('第三步：点击生成'));
    await tour.locator('.ant-tour-next-btn').click();
    await hidden(tour);
    await visible(page.locator('.hf-draw-aside'));
    await hidden(toasts(page));
    await screenshot(page, 'draw');
    await context.close();
  });

  it('registers without an invite code and lands on /omnibus', async () => {
    const { context, page } = await newPage(journey.browser);
    const nickname = `路人${randomSuffix(3)}`;

    const profile = await registerByMobile(page, randomMobile(), false);
    await profile.getByPlaceholder('2–16 个字符').fill(nickname);
    await profile.getByPlaceholder('2–16 个字符').press('Enter');

    await page.waitForURL('**/omnibus');
    expect(pathname(page)).toBe('/omnibus');
    await visible(page.getByRole('heading', { name: '灵感广场' }));
    await visible(page.locator('.hf-user-name', { hasText: nickname }));
    await screenshot(page, 'omnibus');
    await context.close();
  });
});
