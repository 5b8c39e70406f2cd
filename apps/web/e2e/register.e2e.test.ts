import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  createInviteCode,
  newPage,
  randomMobile,
  randomSuffix,
  type ScreenName,
  screenshot,
  setupJourney,
} from './harness';
import {
  chooseTab,
  dialog,
  hidden,
  loginDialog,
  openLogin,
  pathname,
  press,
  sidewaysOverflow,
  toast,
  toasts,
  visible,
} from './ui';

const journey = setupJourney();

/** 手机登录 of a new number from the header: one step, it signs up and logs in. */
async function signUpByMobile(page: Page, mobile: string, shots: boolean, screen: ScreenName = 'desktop') {
  const { server } = journey;
  await page.goto(`${server.baseUrl}/`);
  await visible(page.getByText('让每一个想象，都跃然纸上'));
  if (shots) await screenshot(page, 'home');

  // A tap on a phone: a click would leave the pointer over the header, where the toast then shows, holding it open.
  await press(screen, page.locator('.hf-header-right').getByRole('button', { name: '登录' }));
  const login = loginDialog(page);
  await visible(login);
  // The dialog opens on 手机登录 and says a new mobile signs up by itself.
  expect(await login.getByRole('tab', { name: '手机登录' }).getAttribute('aria-selected')).toBe('true');
  await visible(login.getByText('未注册的手机号验证后自动注册'));
  await login.getByPlaceholder('请输入手机号').fill(mobile);
  if (shots) await screenshot(page, 'login-dialog');

  const codePromise = server.waitForSmsCode(mobile);
  await press(screen, login.getByRole('button', { name: '获取验证码' }));
  const code = await codePromise;
  await visible(login.getByRole('button', { name: /秒后重发/ }));
  await login.getByPlaceholder('6 位验证码').fill(code);
  await login.getByPlaceholder('6 位验证码').press('Enter');

  await visible(toast(page, '注册成功'));
  await hidden(loginDialog(page));
  // No password to set on the way: it can be set later in 个人信息.
  expect(await dialog(page, '注册账号').count()).toBe(0);
}

describe('new user by mobile', () => {
  for (const screen of ['desktop', 'phone'] as const) {
    it(`signs up in one step; with an invite code lands on /draw with a guidance that names what is on screen (${screen})`, async () => {
      const inviteCode = await createInviteCode(journey.server);
      const { context, page } = await newPage(journey.browser, screen);

      await signUpByMobile(page, randomMobile(), screen === 'desktop', screen);
      // No action was waiting, so the optional invite step is offered once.
      const invite = dialog(page, '填写邀请码');
      await visible(invite);
      await invite.getByLabel('邀请码').fill(inviteCode);
      await press(screen, invite.getByRole('button', { name: '确定' }));

      await page.waitForURL('**/draw');
      expect(pathname(page)).toBe('/draw');
      await visible(page.locator('.hf-credits', { hasText: /剩余 \d+ 点/ }));
      // Invite code type 01 shows the draw guidance, worded for the layout: a left aside only on a desktop.
      const guidance = dialog(page, '新手引导');
      await visible(guidance);
      const where = screen === 'desktop' ? '在左侧的任务卡片点「切换」' : '在页面顶部的任务卡片点「切换」';
      await visible(guidance.getByText(where, { exact: false }));
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `guidance-${screen}`);
      await press(screen, guidance.getByRole('button', { name: '开始创作' }));
      await hidden(guidance);
      // No template yet: the tour points at 选择模板, the one thing there is, and says what comes after it.
      const tour = page.locator('.ant-tour');
      await visible(tour.getByText('第一步：选择模板'));
      await visible(tour.getByText('页面底部会出现「生成」按钮', { exact: false }));
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      const panel = await tour.boundingBox();
      expect((panel?.x ?? -1) >= 0 && (panel?.x ?? 0) + (panel?.width ?? 0) <= (page.viewportSize()?.width ?? 0)).toBe(
        true,
      );
      await screenshot(page, `tour-${screen}`);
      await press(screen, tour.locator('.ant-tour-next-btn'));
      await hidden(tour);
      await visible(page.getByRole('button', { name: '选择模板' }));
      await hidden(toasts(page));
      await screenshot(page, `draw-${screen}`);
      await context.close();
    });
  }

  it('registers an unknown account name with a password, then 完善资料 lands on /omnibus', async () => {
    const { context, page } = await newPage(journey.browser);
    const nickname = `路人${randomSuffix(3)}`;
    await page.goto(`${journey.server.baseUrl}/`);
    const login = await openLogin(page);
    await chooseTab(login.getByRole('tab', { name: '账号登录' }));
    await login.getByPlaceholder('请输入账号').fill(`new${randomSuffix(8)}`);
    await login.getByPlaceholder('请输入密码').fill('whatever1');
    await login.getByRole('button', { name: '登录', exact: true }).click();

    const register = dialog(page, '注册账号');
    await visible(register);
    await hidden(loginDialog(page));
    const password = `Huafang${randomSuffix(4)}9`;
    await register.getByPlaceholder('8–32 位，需同时包含字母和数字').fill(password);
    await register.getByPlaceholder('请再次输入密码').fill(password);
    await register.getByRole('button', { name: '注册' }).click();

    const profile = dialog(page, '完善资料');
    await visible(profile);
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
