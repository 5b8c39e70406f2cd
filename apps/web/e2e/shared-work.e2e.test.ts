import type { PromptGroupItem, TemplateDetail } from '@huafang/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  api,
  generateAndWait,
  newPage,
  randomMobile,
  randomSuffix,
  registerUserViaApi,
  type ScreenName,
  screenshot,
  setupJourney,
  type TestServer,
  templateIdByName,
} from './harness';
import { dialog, hidden, loginDialog, press, sidewaysOverflow, toast, visible } from './ui';

// A server of its own: each run signs up new mobiles, which spends this address's 获取验证码 allowance.
const journey = setupJourney({ ownServer: true });

async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
}

/** A work made with 水墨山水 and the author's own Chinese words, as /draw sends it; answers its id. */
async function templateWork(server: TestServer, token: string, words: string): Promise<string> {
  const templateId = await templateIdByName(server, '水墨山水');
  const detail = await api<TemplateDetail>(server, 'GET', `/api/task/template/detail/${templateId}`, { token });
  const step = detail.data.taskStepList[0];
  if (!step) throw new Error('水墨山水 has no step');
  const mine: PromptGroupItem = { id: 'mine', groupName: words, promptText: words, custom: '1' };
  const started = await api<{ generateId: string }>(server, 'POST', '/api/generate/task', {
    token,
    body: {
      templateId,
      stepIndex: step.stepIndex,
      promptGroup: [...step.promptGroup, mine],
      negativePromptGroup: step.negativePromptGroup,
      parameters: { width: 256, height: 256, steps: 4, batchSize: 1 },
    },
  });
  expect(started.code, started.msg).toBe(0);
  await expect
    .poll(
      async () =>
        (
          await api<{ status: string }>(server, 'POST', '/api/generate/task/progress', {
            token,
            body: { generateId: started.data.generateId },
          })
        ).data.status,
      { timeout: 30_000 },
    )
    .toBe('succeeded');
  const mineNow = await api<{ list: { id: string }[] }>(server, 'GET', '/api/works/profile?current=1&pageSize=1', {
    token,
  });
  const id = mineNow.data.list[0]?.id;
  if (!id) throw new Error('the work was not stored');
  return id;
}

describe('做同款 on a shared link', () => {
  const words = `戴红围巾的柴犬${randomSuffix(4)}`;
  /** The author's works, made once by the first test that needs them (expect.poll waits only inside a test). */
  let works: Promise<{ nickname: string; shared: string; unpublished: string }> | undefined;
  const authorWorks = () => {
    works ??= (async () => {
      const { server } = journey;
      const author = await registerUserViaApi(server);
      const shared = await templateWork(server, author.token, words);
      const published = await api(server, 'POST', '/api/works/publish', {
        token: author.token,
        body: { id: shared, public: true, hidePrompt: false },
      });
      expect(published.code, published.msg).toBe(0);
      const [unpublished] = await generateAndWait(server, author, { prompt: '没有发布的作品', steps: 4, batchSize: 1 });
      if (!unpublished) throw new Error('the private work was not stored');
      return { nickname: author.nickname, shared, unpublished };
    })();
    return works;
  };

  for (const screen of ['phone', 'desktop'] as ScreenName[]) {
    it(`a guest opens the link, taps 做同款, signs up by SMS and generates from the author's words (${screen})`, async () => {
      const { server, browser } = journey;
      const { nickname, shared } = await authorWorks();
      const { context, page } = await newPage(browser, screen);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });

      // The link is copied from the work's detail on 灵感广场, as a reader passes it on in WeChat.
      await page.goto(`${server.baseUrl}/omnibus`);
      await press(
        screen,
        page
          .locator('.hf-public-card')
          .filter({ hasText: nickname })
          .getByRole('button', { name: /^查看作品/ }),
      );
      const detail = dialog(page, '作品详情');
      await press(screen, detail.getByRole('button', { name: '复制链接' }));
      await visible(toast(page, '链接已复制，发给好友即可查看'));
      const link = await page.evaluate(() => navigator.clipboard.readText());
      expect(link).toBe(`${server.baseUrl}/work/${shared}`);

      await page.goto(link);

      // The work as the author shared it: picture, author, template, their words, counts and 做同款.
      const work = page.getByRole('article', { name: '作品：水墨山水' });
      await visible(work.getByRole('heading', { name: '水墨山水' }));
      await visible(work.getByText(nickname));
      // What WeChat's share card and the tab show.
      await expect.poll(() => page.title()).toBe(`${nickname}的作品「水墨山水」 - 画坊`);
      await visible(work.getByRole('region', { name: '正向提示词' }).getByText(words, { exact: false }));
      await visible(work.getByText(/^模型：/));
      await visible(work.getByRole('button', { name: '点赞（0 个赞）' }));
      await visible(work.getByRole('button', { name: '收藏（0 人收藏）' }));
      await expect.poll(() => work.getByRole('img', { name: '水墨山水' }).first().isVisible()).toBe(true);
      await noSidewaysScroll(page);
      await screenshot(page, `shared-work-${screen}`);

      await press(screen, work.getByRole('button', { name: '做同款' }));
      const login = loginDialog(page);
      await visible(login.getByText('登录或注册后会自动继续刚才的操作'));
      await noSidewaysScroll(page);
      // One step: mobile and code.
      const mobile = randomMobile();
      await login.getByLabel('手机号').fill(mobile);
      const code = server.waitForSmsCode(mobile);
      await press(screen, login.getByRole('button', { name: '获取验证码' }));
      await login.getByLabel('验证码').fill(await code);
      await press(screen, login.getByRole('button', { name: '登录', exact: true }));

      await page.waitForURL('**/draw');
      await visible(toast(page, '注册成功'));
      await hidden(login);
      for (const title of ['注册账号', '完善资料', '填写邀请码']) expect(await dialog(page, title).count()).toBe(0);
      await visible(page.getByRole('heading', { name: '水墨山水' }));
      await visible(page.getByRole('region', { name: '正向提示词' }).getByText(words, { exact: false }).first());
      await noSidewaysScroll(page);
      await screenshot(page, `shared-work-${screen}-draw`);

      const bar = page.locator('.hf-generate-bar');
      await press(screen, bar.getByRole('button', { name: /^(thunderbolt )?生成$/ }));
      const view =
        screen === 'desktop' ? page.getByRole('complementary', { name: '结果画布' }) : dialog(page, '生成结果');
      await visible(view.getByRole('region', { name: '生成进度' }).locator('.ant-tag', { hasText: '已完成' }), 90_000);
      await visible(view.getByRole('region', { name: '本次结果' }).getByRole('img', { name: '生成结果 1' }));
      await context.close();
    });
  }

  it('answers a work that is not public with 作品不存在或未公开, at both sizes', async () => {
    const { server, browser } = journey;
    const { unpublished } = await authorWorks();
    for (const screen of ['phone', 'desktop'] as ScreenName[]) {
      const { context, page } = await newPage(browser, screen);
      await page.goto(`${server.baseUrl}/work/${unpublished}`);
      await visible(page.getByText('作品不存在或未公开'));
      await visible(page.getByRole('button', { name: /去灵感广场看看/ }));
      // The page says it; no error notice repeats it.
      expect(await page.locator('.ant-message-notice, .ant-notification-notice').count()).toBe(0);
      await noSidewaysScroll(page);
      await screenshot(page, `shared-work-${screen}-gone`);
      await context.close();
    }
  });
});
