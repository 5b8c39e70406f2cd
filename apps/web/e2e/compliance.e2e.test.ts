import { type ComplianceSettings, DEFAULT_COMPLIANCE_SETTINGS } from '@huafang/contracts';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  ADMIN,
  adminToken,
  api,
  generateAndWait,
  loggedInOnDraw,
  newPage,
  type RegisteredUser,
  registerInvitedUser,
  type ScreenName,
  screenshot,
  setupJourney,
} from './harness';
import { confirmation, dialog, hidden, openAdminPage, press, seeToast, sidewaysOverflow, toast, visible } from './ui';

// A server of its own: 合规设置 apply to every user of a server.
const journey = setupJourney({ ownServer: true });

const MARK_TEXT_RULE = '标识文字须同时包含“AI”或“人工智能”与“生成”或“合成”，如“AI生成”';
const PRODUCER_RULE = '服务提供者名称或编码只能包含英文字母、数字和英文符号，不能有空格、双引号或反斜杠';

async function storedSettings(): Promise<ComplianceSettings> {
  const token = await adminToken(journey.server);
  return (await api<ComplianceSettings>(journey.server, 'GET', '/api/admin/compliance', { token })).data;
}

async function saveSettingsViaApi(settings: ComplianceSettings): Promise<void> {
  const token = await adminToken(journey.server);
  const saved = await api(journey.server, 'POST', '/api/admin/compliance', { token, body: settings });
  expect(saved.code).toBe(0);
}

/** 合规设置 from the admin menu: in the side menu on a desktop, behind 后台菜单 on a phone. */
async function openCompliance(page: Page, screen: ScreenName): Promise<void> {
  await openAdminPage(page, journey.server.baseUrl, screen, '合规设置', '/admin/compliance');
  await visible(page.getByLabel('显式标识文字'));
}

/** Saves with 保存 and waits for the server's 设置成功, then for the toast to go so the next one shows. */
async function save(page: Page, screen: ScreenName): Promise<void> {
  await press(screen, page.getByRole('button', { name: '保存' }));
  await seeToast(page, '设置成功');
}

/**
 * Taps the 显式标识 switch until the confirmation asking to switch it off shows: a tap that lands while the
 * switch is still animating from the previous one can be lost.
 */
async function askToSwitchOff(page: Page, screen: ScreenName): Promise<Locator> {
  const confirm = confirmation(page, '关闭显式标识？');
  for (let attempt = 0; attempt < 5; attempt++) {
    await press(screen, page.getByRole('switch', { name: '显式标识' }));
    try {
      await visible(confirm, 2_000);
      return confirm;
    } catch {
      // The tap was lost; tap again.
    }
  }
  throw new Error('switching 显式标识 off asked for no confirmation');
}

/**
 * The AI生成 badge drawn inside `frame`, in its bottom-left corner and well smaller than it. Both boxes are read in one
 * go in the page (two separate reads can straddle a scroll or an image settling) and read again until they hold.
 */
async function expectBadgeInCorner(frame: Locator, text: string): Promise<void> {
  const badge = frame.getByRole('img', { name: text, exact: true });
  await visible(badge);
  const placement = () =>
    frame.evaluate((outerElement, label) => {
      const innerElement = [...outerElement.querySelectorAll('[role="img"]')].find(
        (element) => element.getAttribute('aria-label') === label,
      );
      if (!innerElement) return 'the badge is gone';
      const outer = outerElement.getBoundingClientRect();
      const inner = innerElement.getBoundingClientRect();
      if (inner.left < outer.left) return 'the badge starts left of its work';
      if (inner.right > outer.left + outer.width / 2 + 1) return 'the badge reaches past the middle of its work';
      if (inner.bottom > outer.bottom) return 'the badge hangs below its work';
      if (inner.top <= outer.top + outer.height / 2) return 'the badge is not in the bottom half of its work';
      return 'in the bottom-left corner';
    }, text);
  await expect.poll(placement, { timeout: 10_000 }).toBe('in the bottom-left corner');
}

/** Two small free creations (made through the API, as /chuangyi does); the first is published to 灵感广场. */
async function makeWorks(user: RegisteredUser): Promise<void> {
  const { server } = journey;
  const mine = await generateAndWait(server, user, { prompt: 'city', steps: 8, batchSize: 2 });
  expect(mine).toHaveLength(2);
  const published = await api(server, 'POST', '/api/works/publish', {
    token: user.token,
    body: { id: mine[0], public: true, hidePrompt: false },
  });
  expect(published.code).toBe(0);
}

describe('合规设置 and the AI生成 badge', () => {
  for (const [screen, markText, corner, position] of [
    ['phone', 'AI合成', '左上角', 'topLeft'],
    ['desktop', '人工智能生成', '右上角', 'topRight'],
  ] as const) {
    it(`lets an admin change the labels at ${screen} size, refusing bad values and confirming the mark off`, async () => {
      const { context, page } = await loggedInOnDraw(journey, ADMIN, screen);
      await openCompliance(page, screen);
      const before = await storedSettings();
      const markTextField = page.getByLabel('显式标识文字');

      // Bad values: the server's Chinese rule under the field, nothing sent.
      await markTextField.fill('图片水印');
      await markTextField.press('Enter');
      await visible(page.locator('.ant-form-item-explain-error', { hasText: MARK_TEXT_RULE }));
      const producer = page.getByLabel('服务提供者名称或编码', { exact: true });
      await producer.fill('画坊 科技');
      await producer.press('Enter');
      await visible(page.locator('.ant-form-item-explain-error', { hasText: PRODUCER_RULE }));
      expect(await toast(page, '设置成功').count()).toBe(0);
      expect(await storedSettings()).toEqual(before);
      await screenshot(page, `${screen}-compliance-invalid`);

      // Good values, saved with Enter from a text field.
      await producer.fill('91110000MA00TEST0X');
      await markTextField.fill(markText);
      // The error lines fold away as the fields turn valid, moving the radios up: tap once they have settled.
      await expect.poll(() => page.locator('.ant-form-item-explain-error').count()).toBe(0);
      await press(screen, page.getByText(corner, { exact: true }));
      await expect.poll(() => page.getByRole('radio', { name: corner }).isChecked()).toBe(true);
      await markTextField.press('Enter');
      await seeToast(page, '设置成功');
      expect(await storedSettings()).toEqual({
        ...before,
        producer: '91110000MA00TEST0X',
        markText,
        markPosition: position,
      });

      // Switching the mark off asks first and says what 第九条 allows; 保持开启 leaves it on.
      const markSwitch = page.getByRole('switch', { name: '显式标识' });
      let confirm = await askToSwitchOff(page, screen);
      await visible(confirm.getByText(/第九条/));
      await screenshot(page, `${screen}-compliance-confirm-off`);
      await press(screen, confirm.getByRole('button', { name: '保持开启' }));
      await hidden(confirm);
      expect(await markSwitch.isChecked()).toBe(true);

      confirm = await askToSwitchOff(page, screen);
      await press(screen, confirm.getByRole('button', { name: '仍要关闭' }));
      await hidden(confirm);
      await expect.poll(() => markSwitch.isChecked()).toBe(false);
      await visible(page.getByText('显式标识已关闭'));
      await save(page, screen);
      expect((await storedSettings()).markEnabled).toBe(false);

      // Back on: no question asked.
      await press(screen, markSwitch);
      await expect.poll(() => markSwitch.isChecked()).toBe(true);
      await hidden(page.getByText('显式标识已关闭'));
      await save(page, screen);
      expect((await storedSettings()).markEnabled).toBe(true);

      // The form shows what is stored after a reload.
      await page.reload();
      await visible(page.getByLabel('显式标识文字'));
      expect(await page.getByLabel('显式标识文字').inputValue()).toBe(markText);
      expect(await page.getByRole('radio', { name: corner }).isChecked()).toBe(true);
      await screenshot(page, `${screen}-compliance`);
      await context.close();
    });
  }

  it('shows a user the AI生成 badge on every work in 灵感广场, 我的作品, the detail and the home page, and not 合规设置', async () => {
    const { server, browser } = journey;
    await saveSettingsViaApi(DEFAULT_COMPLIANCE_SETTINGS);
    const user = await registerInvitedUser(server);
    await makeWorks(user);

    for (const screen of ['phone', 'desktop'] as const) {
      const { context, page } = await loggedInOnDraw(journey, user, screen);

      // 灵感广场: the published work's card, badge over the thumbnail's corner.
      await page.goto(`${server.baseUrl}/omnibus`);
      const card = page.locator('.hf-public-card').filter({ hasText: user.nickname });
      await expectBadgeInCorner(card.locator('.hf-aigc-frame'), 'AI生成');
      await screenshot(page, `${screen}-omnibus-badge`);

      // The work detail: the badge on the original too.
      await press(screen, card.getByRole('button', { name: /^查看作品/ }));
      const detail = dialog(page, '作品详情');
      await expectBadgeInCorner(detail.locator('.hf-work-original'), 'AI生成');
      await page.keyboard.press('Escape');
      await hidden(detail);

      // 我的作品: every tile, published or not.
      await page.goto(`${server.baseUrl}/myGallery`);
      const tiles = page.locator('.hf-gallery-tile');
      await visible(tiles.nth(1));
      for (const tile of await tiles.all()) await expectBadgeInCorner(tile, 'AI生成');
      await screenshot(page, `${screen}-my-gallery-badge`);

      // The home page's 最新作品.
      await page.goto(`${server.baseUrl}/`);
      const latest = page.getByRole('region', { name: '最新作品' });
      await expectBadgeInCorner(latest.locator('.hf-aigc-frame').first(), 'AI生成');
      if (screen === 'phone') expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

      // 合规设置 is for admins only.
      await page.goto(`${server.baseUrl}/admin/compliance`);
      await visible(page.getByText('抱歉，你无权访问该页面'));
      expect(await page.getByRole('heading', { name: '合规设置' }).count()).toBe(0);
      await context.close();
    }

    // The text is the server's: after an admin changes it, the next visit shows the new one.
    await saveSettingsViaApi({ ...DEFAULT_COMPLIANCE_SETTINGS, markText: 'AI合成' });
    const { context, page } = await newPage(browser, 'phone');
    await page.goto(`${server.baseUrl}/omnibus`);
    const card = page.locator('.hf-public-card').filter({ hasText: user.nickname });
    await expectBadgeInCorner(card.locator('.hf-aigc-frame'), 'AI合成');
    await context.close();
    await saveSettingsViaApi(DEFAULT_COMPLIANCE_SETTINGS);
  });
});
