import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pickTemplate, setNumber } from './draw-ui';
import {
  api,
  newPage,
  registerInvitedUser,
  type ScreenName,
  screenshot,
  setupJourney,
  waitForSmsResend,
} from './harness';
import {
  chooseTab,
  confirmation,
  confirmWith,
  hidden,
  openLogin,
  press,
  sidewaysOverflow,
  toast,
  toasts,
  visible,
} from './ui';

const journey = setupJourney();

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function box(locator: Locator): Promise<Box> {
  return locator.evaluate((element) => {
    const { x, y, width, height } = element.getBoundingClientRect();
    return { x, y, width, height };
  });
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Holds a finger on the element until `until` shows, then lifts it. */
async function longPress(page: Page, target: Locator, until: Locator): Promise<void> {
  const { x, y, width, height } = await box(target);
  const point = { x: x + width / 2, y: y + height / 2 };
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  await visible(until);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** The step's parameters: the aside on wide screens, the folded 参数设置 section of the stacked flow on phones. */
async function parameters(page: Page, screen: ScreenName): Promise<Locator> {
  if (screen === 'desktop') return page.locator('.hf-draw-aside');
  const section = page.getByRole('region', { name: '参数设置' });
  await press(screen, section.getByRole('button', { name: /参数设置/ }));
  await visible(section.getByRole('spinbutton', { name: '宽度', exact: true }));
  return section;
}

async function openFromHeader(page: Page, screen: ScreenName, label: string): Promise<void> {
  if (screen === 'desktop') {
    await page.locator('.hf-nav').getByText(label).click();
    return;
  }
  await press(screen, page.getByRole('button', { name: '菜单', exact: true }));
  const drawer = page.locator('.hf-nav-drawer');
  await visible(drawer.getByRole('menuitem', { name: label }));
  await screenshot(page, `${screen}-menu`);
  await press(screen, drawer.getByRole('menuitem', { name: label }));
  await hidden(drawer.getByRole('menuitem', { name: label }));
}

describe.each<ScreenName>(['phone', 'desktop'])('main flows on the %s', (screen) => {
  it('logs in by SMS, generates, views the result, runs 下一步, opens 我的作品 and deletes a work', async () => {
    const { server, browser } = journey;
    const user = await registerInvitedUser(server);
    const { context, page } = await newPage(browser, screen);

    // 手机登录 from the header.
    await page.goto(`${server.baseUrl}/`);
    const login = await openLogin(page);
    const phoneTab = login.getByRole('tab', { name: '手机登录' });
    const mobile = login.getByPlaceholder('请输入手机号');
    await chooseTab(phoneTab, (target) => press(screen, target));
    await mobile.fill(user.mobile);
    await waitForSmsResend(user);
    const code = server.waitForSmsCode(user.mobile);
    await press(screen, login.getByRole('button', { name: '获取验证码' }));
    await login.getByPlaceholder('6 位验证码').fill(await code);
    await screenshot(page, `${screen}-login`);
    await press(screen, login.getByRole('button', { name: '登录', exact: true }));
    await page.waitForURL('**/draw');
    await hidden(toasts(page));

    // Template, prompts and parameters, then 生成 from the bottom bar.
    await pickTemplate(page, '国风插画', '国潮插画');
    const form = await parameters(page, screen);
    for (const [label, value] of Object.entries({ 宽度: 256, 高度: 256, 采样步数: 8, 生成数量: 2 })) {
      await setNumber(form, label, value);
    }
    const bar = page.locator('.hf-generate-bar');
    await visible(bar.getByText('预计消耗 2 点'));
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, `${screen}-draw-ready`);
    await press(screen, bar.getByRole('button', { name: /^(thunderbolt )?生成$/ }));

    const progress = page.getByRole('region', { name: '生成进度' });
    await visible(progress.locator('.ant-tag', { hasText: '已完成' }), 30_000);
    const results = page.getByRole('region', { name: '本次结果' });
    const cards = results.locator('.hf-result-card');
    await visible(cards.nth(1));
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await cards.first().scrollIntoViewIfNeeded();
    await screenshot(page, `${screen}-draw-results`);

    // 查看大图: the preview's close button sits clear of the header's controls, and closes the preview.
    await press(screen, cards.first().getByRole('button', { name: '查看第 1 张大图' }));
    await visible(page.locator('.ant-image-preview img'));
    const close = page.locator('.ant-image-preview-close');
    await visible(close);
    const closeBox = await box(close);
    for (const control of [page.locator('.hf-user-trigger'), page.locator('.hf-credits')]) {
      expect(overlaps(closeBox, await box(control)), `close button over ${control}`).toBe(false);
    }
    await screenshot(page, `${screen}-preview`);
    await press(screen, close);
    await hidden(page.locator('.ant-image-preview img'));

    // 下一步 runs step 2 on the chosen image.
    await press(screen, cards.first().getByRole('button', { name: /下一步：高清放大/ }));
    await visible(page.getByRole('tab', { name: '步骤 2 高清放大', selected: true }));
    await visible(results.getByText('512×512'), 30_000);
    // On a phone the results are a sheet over the form (and the header): 返回表单 closes it.
    if (screen === 'phone') {
      const sheet = page.getByRole('dialog', { name: '生成结果' });
      await press(screen, sheet.getByRole('button', { name: /返回表单/ }));
      await hidden(sheet);
    }

    // 我的作品: two columns on a phone, a work's detail, then 多选 and 删除.
    await openFromHeader(page, screen, '我的作品');
    await page.waitForURL('**/myGallery');
    const tiles = page.locator('.hf-gallery-tile');
    await visible(tiles.nth(2));
    const count = await tiles.count();
    expect(count).toBe(3);
    if (screen === 'phone') {
      const [first, second] = [await box(tiles.nth(0)), await box(tiles.nth(1))];
      expect(second.y).toBe(first.y);
      expect(second.x).toBeGreaterThan(first.x);
    }
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, `${screen}-my-gallery`);

    await press(screen, tiles.first().getByRole('button'));
    const detail = page.locator('.hf-work-dialog').filter({ visible: true });
    await visible(detail.locator('.ant-descriptions'));
    if (screen === 'phone') {
      // Full screen on a phone.
      const frame = () => box(detail.locator('.ant-modal-container'));
      await expect.poll(async () => Math.round((await frame()).x)).toBe(0);
      await expect.poll(async () => Math.round((await frame()).width)).toBe(390);
    }
    await screenshot(page, `${screen}-work-detail`);
    await press(screen, detail.getByRole('button', { name: /^(Close|关闭)$/ }));
    await hidden(detail);

    // A long press starts 多选 on a touch screen; the desktop uses the 多选 button.
    if (screen === 'desktop') {
      await press(screen, page.getByRole('button', { name: '多选' }));
      await press(screen, tiles.first().getByRole('button'));
    } else {
      await longPress(page, tiles.first().getByRole('button'), page.getByText('已选 1 个'));
    }
    await visible(page.getByText('已选 1 个'));
    await press(screen, page.locator('.hf-gallery-selection').getByRole('button', { name: '删除' }));
    const confirm = confirmation(page, '删除这个作品？');
    await confirmWith(confirm, '删除', (target) => press(screen, target));
    await visible(toast(page, '删除成功'));
    await expect.poll(() => tiles.count()).toBe(count - 1);
    await screenshot(page, `${screen}-my-gallery-deleted`);

    // 灵感广场 with the two works left, published: two columns on a phone.
    const mine = await api<{ list: { id: string }[] }>(server, 'GET', '/api/works/profile?current=1&pageSize=30', {
      token: user.token,
    });
    for (const work of mine.data.list) {
      const published = await api(server, 'POST', '/api/works/publish', {
        token: user.token,
        body: { id: work.id, public: true, hidePrompt: false },
      });
      expect(published.code).toBe(0);
    }
    await openFromHeader(page, screen, '灵感广场');
    await page.waitForURL('**/omnibus');
    const cardsOnWall = page.locator('.hf-public-card').filter({ hasText: user.nickname });
    await visible(cardsOnWall.nth(1));
    if (screen === 'phone') {
      // Two columns: each card takes at most half the width (the masonry decides which column it joins).
      expect((await box(cardsOnWall.nth(0))).width).toBeLessThanOrEqual(390 / 2);
    }
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, `${screen}-omnibus`);
    await context.close();
  });
});
