import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  adminToken,
  api,
  generateAndWait,
  newPage,
  randomMobile,
  randomSuffix,
  registerUserViaApi,
  type ScreenName,
  screenshot,
  setupJourney,
  templateIdByName,
} from './harness';
import {
  chooseTab,
  chooseUserMenuItem,
  dialog,
  hidden,
  loginDialog,
  press,
  sidewaysOverflow,
  toast,
  visible,
} from './ui';

// A server of its own: each run signs up new mobiles, which spends this address's 获取验证码 allowance.
const journey = setupJourney({ ownServer: true });

const SCREENS: ScreenName[] = ['desktop', 'phone'];

async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
}

/** The login dialog a guest's action opened: it starts on 手机登录 and says a new mobile signs up by itself. */
async function askedToLogIn(page: Page) {
  const login = loginDialog(page);
  await visible(login);
  expect(await login.getByRole('tab', { name: '手机登录' }).getAttribute('aria-selected')).toBe('true');
  await visible(login.getByText('未注册的手机号验证后自动注册'));
  await visible(login.getByText('登录或注册后会自动继续刚才的操作'));
  return login;
}

/** 账号登录 in the dialog already open. */
async function logInWithAccount(screen: ScreenName, page: Page, account: string, password: string) {
  const login = loginDialog(page);
  await chooseTab(login.getByRole('tab', { name: '账号登录' }), (tab) => press(screen, tab));
  await login.getByLabel('账号', { exact: true }).fill(account);
  await login.getByLabel('密码', { exact: true }).fill(password);
  await press(screen, login.getByRole('button', { name: '登录', exact: true }));
}

describe('nothing lost on the way in', () => {
  // The demo features no template: the admin features one that runs from a prompt alone.
  beforeAll(async () => {
    const { server } = journey;
    const templateId = await templateIdByName(server, '水墨山水');
    const featured = await api(server, 'POST', '/api/task/template/featured', {
      token: await adminToken(server),
      body: { templateId, featured: true, featuredSort: 0 },
    });
    expect(featured.code, featured.msg).toBe(0);
  });

  for (const screen of SCREENS) {
    it(`a guest taps a 精选模板, signs up by SMS in one step and lands in that template (${screen})`, async () => {
      const { server, browser } = journey;
      const { context, page } = await newPage(browser, screen);
      await page.goto(`${server.baseUrl}/`);
      const card = page
        .getByRole('region', { name: '精选模板' })
        .getByRole('button', { name: /^使用模板 / })
        .first();
      await visible(card);
      const templateName = ((await card.getAttribute('aria-label')) ?? '').replace('使用模板 ', '');
      expect(templateName).not.toBe('');
      await card.scrollIntoViewIfNeeded();
      await press(screen, card);

      const login = await askedToLogIn(page);
      await noSidewaysScroll(page);
      await screenshot(page, `resume-${screen}-login`);

      // One step: mobile and code, nothing else to fill.
      const mobile = randomMobile();
      await login.getByLabel('手机号').fill(mobile);
      const code = server.waitForSmsCode(mobile);
      await press(screen, login.getByRole('button', { name: '获取验证码' }));
      await login.getByLabel('验证码').fill(await code);
      await press(screen, login.getByRole('button', { name: '登录', exact: true }));

      await page.waitForURL('**/draw');
      await visible(toast(page, '注册成功'));
      await hidden(login);
      await visible(page.getByRole('heading', { name: templateName }));
      const generate = page.locator('.hf-generate-button');
      await visible(generate);
      // Ready to generate: the template's words are in, and 生成 runs (or names the one input the template needs).
      await visible(page.getByRole('region', { name: '正向提示词' }));
      await expect
        .poll(async () => (await generate.isEnabled()) || (await page.getByText(/^请先上传/).count()) > 0)
        .toBe(true);
      // Not stopped on the way: no register, profile or invite step.
      for (const title of ['注册账号', '完善资料', '填写邀请码']) expect(await dialog(page, title).count()).toBe(0);
      await noSidewaysScroll(page);
      await screenshot(page, `resume-${screen}-draw`);

      // 个人信息: no password yet (it can be set here), and the account name can be changed once.
      await chooseUserMenuItem(page, '个人信息');
      const profile = dialog(page, '个人信息');
      await visible(profile);
      await visible(profile.locator('tr', { hasText: '登录密码' }).getByText('未设置'));
      const accountRow = profile.locator('tr', { hasText: '账号只能修改一次' });
      await press(screen, accountRow.getByRole('button', { name: '修改' }));
      const rename = dialog(page, '修改账号');
      await visible(rename);
      await noSidewaysScroll(page);
      const account = `hua${randomSuffix(8)}`;
      await rename.getByLabel('新账号').fill(account);
      await screenshot(page, `resume-${screen}-rename`);
      await rename.getByLabel('新账号').press('Enter');
      await visible(toast(page, '设置成功'));
      await visible(profile.locator('tr', { hasText: '账号已修改过，不能再改' }).getByText(account));
      expect(await profile.locator('tr', { hasText: '账号' }).getByRole('button', { name: '修改' }).count()).toBe(0);
      await context.close();
    });

    it(`a prompt typed on the home page waits through login and opens in 自由创作 (${screen})`, async () => {
      const { server, browser } = journey;
      const user = await registerUserViaApi(server);
      const { context, page } = await newPage(browser, screen);
      await page.goto(`${server.baseUrl}/`);
      const prompt = `水墨山水，云雾缭绕的远山 ${randomSuffix(4)}`;
      await page.getByLabel('画面描述').fill(prompt);
      await press(screen, page.getByRole('button', { name: '开始创作' }));

      await askedToLogIn(page);
      await logInWithAccount(screen, page, user.account, user.password);
      await page.waitForURL('**/chuangyi');
      await expect.poll(() => page.getByRole('textbox', { name: '画面描述' }).inputValue()).toBe(prompt);
      // A user without an invite is not stopped by the optional invite step on the way back.
      expect(await dialog(page, '填写邀请码').count()).toBe(0);
      await noSidewaysScroll(page);
      await screenshot(page, `resume-${screen}-prompt`);
      await context.close();
    });

    it(`做同款 on 灵感广场 resumes after login (${screen})`, async () => {
      const { server, browser } = journey;
      const author = await registerUserViaApi(server);
      const prompt = `同款测试 ${randomSuffix(6)}`;
      const [workId] = await generateAndWait(server, author, { prompt, steps: 4, batchSize: 1 });
      const published = await api(server, 'POST', '/api/works/publish', {
        token: author.token,
        body: { id: workId, public: true, hidePrompt: false },
      });
      expect(published.code).toBe(0);

      const reader = await registerUserViaApi(server);
      const { context, page } = await newPage(browser, screen);
      await page.goto(`${server.baseUrl}/omnibus`);
      await press(
        screen,
        page
          .locator('.hf-public-card')
          .filter({ hasText: author.nickname })
          .getByRole('button', { name: /^查看作品/ }),
      );
      const detail = dialog(page, '作品详情');
      await visible(detail.getByRole('button', { name: '做同款' }));
      await press(screen, detail.getByRole('button', { name: '做同款' }));

      await askedToLogIn(page);
      await hidden(detail);
      await noSidewaysScroll(page);
      await logInWithAccount(screen, page, reader.account, reader.password);
      await page.waitForURL('**/chuangyi');
      await expect.poll(() => page.getByRole('textbox', { name: '画面描述' }).inputValue()).toBe(prompt);
      await noSidewaysScroll(page);
      await screenshot(page, `resume-${screen}-make-same`);
      await context.close();
    });
  }
});
