import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN, api, newPage, randomMobile, registerUserViaApi, screenshot, setupJourney } from './harness';
import { chooseTab, dialog, hidden, loginDialog, pathname, toast, visible } from './ui';

// A server of its own: it spends this address's 获取验证码 allowance, which every journey of a lane shares.
const journey = setupJourney({ ownServer: true });

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/** Opens the login dialog through `/?login=1` (the header differs between sizes). */
async function openLoginDialog(page: Page, viewport: { width: number; height: number }) {
  await page.setViewportSize(viewport);
  await page.goto(`${journey.server.baseUrl}/?login=1`);
  const login = loginDialog(page);
  await visible(login);
  return login;
}

/** Logs in through the labelled fields of 账号登录 (the dialog opens on 手机登录). */
async function logInWithLabels(page: Page, account: string, password: string): Promise<void> {
  const login = loginDialog(page);
  await chooseTab(login.getByRole('tab', { name: '账号登录' }));
  await login.getByLabel('账号', { exact: true }).fill(account);
  await login.getByLabel('密码', { exact: true }).fill(password);
  await login.getByRole('button', { name: '登录', exact: true }).click();
}

describe('account dialogs', () => {
  for (const viewport of SIZES) {
    it(`shows a wrong invite code in the invite dialog while 登录成功 is still showing (${viewport.width})`, async () => {
      const { server, browser } = journey;
      const user = await registerUserViaApi(server);
      const { context, page } = await newPage(browser);
      await openLoginDialog(page, viewport);
      await logInWithLabels(page, user.account, user.password);

      const invite = dialog(page, '填写邀请码');
      await visible(invite);
      // The invite is optional and the words say so.
      await visible(invite.getByText('没有邀请码也可以创作'));
      await invite.getByLabel('邀请码').fill('WRONG123');
      await invite.getByRole('button', { name: '确定' }).click();
      // The one toast slot still holds 登录成功, so the dialog itself must say why.
      await visible(invite.getByRole('alert').filter({ hasText: '邀请码无效' }));
      expect(await toast(page, '登录成功').count()).toBe(1);
      await screenshot(page, `invite-error-${viewport.width}`);

      await invite.getByRole('button', { name: '暂不填写' }).click();
      // Closing it stays on the page it was opened from.
      await hidden(invite);
      expect(pathname(page)).toBe('/');
      await visible(page.locator('.hf-user-trigger'));

      // Skipped once, it is not asked again: not on the next login, not on another device.
      const other = await newPage(browser);
      await openLoginDialog(other.page, viewport);
      await logInWithLabels(other.page, user.account, user.password);
      await other.page.waitForURL('**/draw');
      await visible(toast(other.page, '登录成功'));
      expect(await dialog(other.page, '填写邀请码').count()).toBe(0);
      await other.context.close();
      await context.close();
    });

    it(`takes the admin straight to /draw without asking for an invite (${viewport.width})`, async () => {
      const { browser } = journey;
      const { context, page } = await newPage(browser);
      await openLoginDialog(page, viewport);
      await logInWithLabels(page, ADMIN.account, ADMIN.password);
      await page.waitForURL('**/draw');
      await visible(toast(page, '登录成功'));
      expect(await dialog(page, '填写邀请码').count()).toBe(0);
      await context.close();
    });
  }

  // Last: it spends this address's sendCode allowance for the next minute.
  it('counts down the seconds a refused 获取验证码 names, at both sizes', async () => {
    const { server, browser } = journey;
    /**
     * Spends the per-address allowance (RATE_LIMIT_SEND_CODE a minute) so the next send is answered 429: right
     * before each press, since the minute may end while a slow page opens.
     */
    const spendSendAllowance = async () => {
      let refusal = '';
      for (let attempt = 0; attempt < 30 && !refusal; attempt++) {
        const answer = await api(server, 'POST', '/api/auth/sendCode', { body: { mobile: randomMobile() } });
        if (answer.status === 429) refusal = answer.msg;
      }
      expect(refusal).toMatch(/请 \d+ 秒后再试/);
    };

    for (const viewport of SIZES) {
      const { context, page } = await newPage(browser);
      const login = await openLoginDialog(page, viewport);
      await chooseTab(login.getByRole('tab', { name: '手机登录' }));
      await login.getByLabel('手机号').fill(randomMobile());
      await spendSendAllowance();
      await login.getByRole('button', { name: '获取验证码' }).click();
      const alert = login.getByRole('alert').filter({ hasText: /请 \d+ 秒后再试/ });
      await visible(alert);
      const named = Number(/请 (\d+) 秒后再试/.exec((await alert.textContent()) ?? '')?.[1]);
      // The button counts down from the seconds the message names instead of offering 获取验证码 again.
      const countdown = login.getByRole('button', { name: /^\d+ 秒后重发$/ });
      await visible(countdown);
      expect(await countdown.isDisabled()).toBe(true);
      const shown = Number(/^(\d+)/.exec((await countdown.textContent()) ?? '')?.[1]);
      expect(shown).toBeGreaterThan(0);
      expect(shown).toBeLessThanOrEqual(named);
      expect(named - shown).toBeLessThanOrEqual(3);
      await visible(login.getByLabel('验证码'));
      await screenshot(page, `sms-refused-${viewport.width}`);
      await context.close();
    }
  });
});
