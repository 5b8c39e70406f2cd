import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pickTemplate, setNumber } from './draw-ui';
import { ADMIN, invitedUserOnDraw, loggedInOnDraw, newPage, screenshot, setupJourney } from './harness';
import { chooseOption, confirmation, confirmWith, dialog, hidden, loginDialog, popconfirm, toast, visible } from './ui';

// A server of its own: it counts every card on 灵感广场, which other journeys publish to.
const journey = setupJourney({ ownServer: true });
const SEED = 4242;

function aside(page: Page): Locator {
  return page.locator('.hf-draw-aside');
}

function positivePrompts(page: Page): Locator {
  return page.getByRole('region', { name: '正向提示词' });
}

/** The chip labels of the positive prompt group, in order. */
async function promptChips(page: Page): Promise<string[]> {
  return (await positivePrompts(page).locator('.hf-prompt-chip').allTextContents()).map((text) => text.trim());
}

/** 水墨山水 with 杰作 added from 词库, so recall has more to bring back than the template's own words. */
async function generateTwoSmallImages(page: Page): Promise<string[]> {
  await pickTemplate(page, '国风插画', '水墨山水');
  await positivePrompts(page).getByRole('button', { name: '词库' }).click();
  const drawer = page.locator('.ant-drawer').filter({ hasText: '正向词库' });
  await drawer.getByText('杰作', { exact: true }).click();
  await visible(positivePrompts(page).getByText('杰作'));
  await page.keyboard.press('Escape');
  await hidden(drawer.locator('.ant-drawer-title'));
  for (const [label, value] of Object.entries({ 宽度: 256, 高度: 256, 采样步数: 8, 生成数量: 2, 随机种子: SEED })) {
    await setNumber(aside(page), label, value);
  }
  const chips = await promptChips(page);
  await page.locator('.hf-generate-button').click();
  const progress = page.getByRole('region', { name: '生成进度' });
  await visible(progress.locator('.ant-tag', { hasText: '已完成' }), 30_000);
  await visible(page.getByRole('region', { name: '本次结果' }).locator('.hf-result-card').nth(1));
  return chips;
}

function tiles(page: Page): Locator {
  return page.locator('.hf-gallery-tile');
}

/** The value of a row of the detail dialog's parameter table. */
async function parameter(scope: Locator, label: string): Promise<string> {
  const row = scope.locator('.ant-descriptions-item-label', { hasText: label });
  return ((await row.locator('xpath=following-sibling::td[1]').textContent()) ?? '').trim();
}

async function chooseCategory(page: Page, category: string): Promise<void> {
  await chooseOption(page, page.getByLabel('按分类筛选'), category);
}

async function openMyGallery(page: Page): Promise<void> {
  await page.goto(`${journey.server.baseUrl}/myGallery`);
  await visible(page.getByRole('heading', { name: '我的作品' }));
}

describe('galleries', () => {
  it('keeps works in 我的作品, recalls one, publishes it to 灵感广场, zips, deletes, and an admin hides it', async () => {
    const { server, browser } = journey;
    const { user, context, page } = await invitedUserOnDraw(journey);
    const chips = await generateTwoSmallImages(page);
    expect(chips).toContain('杰作');

    // 我的作品: both works under today's heading, as WebP thumbnails.
    await page.locator('.hf-nav').getByText('我的作品').click();
    await page.waitForURL('**/myGallery');
    await visible(tiles(page).nth(1));
    expect(await tiles(page).count()).toBe(2);
    await visible(page.locator('.hf-gallery-day-head', { hasText: '今天' }));
    expect(await tiles(page).first().locator('img').getAttribute('src')).toMatch(/\/thumb\//);
    await screenshot(page, 'my-gallery');

    await tiles(page).first().getByRole('button').click();
    const detail = dialog(page, '作品详情');
    await visible(detail.locator('.ant-descriptions'));
    await visible(detail.getByText('水墨山水'));
    const prompt = ((await detail.locator('.hf-work-prompt').first().textContent()) ?? '').trim();
    expect(prompt).toContain('masterpiece');
    const seed = await parameter(detail, '随机种子');
    expect(Number(seed)).toBeGreaterThanOrEqual(SEED);
    expect(await parameter(detail, '尺寸')).toBe('256 × 256');
    expect(await detail.locator('.hf-work-original img').first().getAttribute('src')).toMatch(/\/image\//);
    await screenshot(page, 'work-detail');

    // 再次生成 replaces whatever /draw holds with the work's template, prompt group and seed.
    await page.keyboard.press('Escape');
    await hidden(detail);
    await page.goto(`${server.baseUrl}/draw`);
    await pickTemplate(page, '国风插画', '国潮插画');
    expect(await promptChips(page)).not.toContain('杰作');
    await openMyGallery(page);
    await tiles(page).first().getByRole('button').click();
    await dialog(page, '作品详情').getByRole('button', { name: '再次生成' }).click();
    await page.waitForURL('**/draw');
    await visible(aside(page).getByText('模板：水墨山水'));
    await expect.poll(() => promptChips(page)).toEqual(chips);
    expect(await aside(page).getByRole('spinbutton', { name: '随机种子' }).inputValue()).toBe(seed);
    expect(await aside(page).getByRole('spinbutton', { name: '生成数量' }).inputValue()).toBe('1');
    expect(await aside(page).getByRole('spinbutton', { name: '宽度' }).inputValue()).toBe('256');

    // Enter searches the prompts; a search without matches offers 清除筛选.
    await openMyGallery(page);
    const search = page.getByLabel('搜索作品');
    await search.fill('找不到的词');
    await search.press('Enter');
    await visible(page.getByText('没有符合条件的作品'));
    await page.getByRole('button', { name: '清除筛选' }).click();
    await visible(tiles(page).nth(1));
    await search.fill('masterpiece');
    await search.press('Enter');
    await expect.poll(() => tiles(page).count()).toBe(2);
    expect(await search.inputValue()).toBe('masterpiece');

    // Publish the other work with its prompts shown.
    await tiles(page).nth(1).getByRole('button').click();
    const publishing = dialog(page, '作品详情');
    await visible(publishing.getByRole('button', { name: '发布到广场' }));
    expect(await publishing.getByRole('checkbox', { name: '隐藏提示词' }).isChecked()).toBe(false);
    await publishing.getByRole('button', { name: '发布到广场' }).click();
    await visible(toast(page, '已发布到灵感广场'));
    await visible(publishing.locator('.ant-tag', { hasText: '已发布到灵感广场' }));
    await visible(publishing.getByRole('button', { name: '取消发布' }));
    await page.keyboard.press('Escape');
    await hidden(publishing);
    await visible(tiles(page).nth(1).getByText('已发布'));

    // A visitor (no login) finds it on 灵感广场 and on the home page, prompt included.
    const visitor = await newPage(browser);
    await visitor.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    await visitor.page.goto(`${server.baseUrl}/omnibus`);
    const card = visitor.page.locator('.hf-public-card');
    await visible(card);
    expect(await card.count()).toBe(1);
    await visible(card.getByText(user.nickname));
    await screenshot(visitor.page, 'omnibus');
    await card.getByRole('button', { name: /^查看作品/ }).click();
    const publicDetail = dialog(visitor.page, '作品详情');
    await visible(publicDetail.locator('.hf-work-prompt').first());
    expect(((await publicDetail.locator('.hf-work-prompt').first().textContent()) ?? '').trim()).toBe(prompt);
    await visible(publicDetail.getByText(user.nickname));
    await visitor.page.mouse.move(0, 0);
    await screenshot(visitor.page, 'omnibus-detail');
    await publicDetail.getByRole('button', { name: '复制提示词' }).click();
    await visible(toast(visitor.page, '已复制'));
    expect(await visitor.page.evaluate(() => navigator.clipboard.readText())).toBe(prompt);
    // 做同款 needs an account: the login dialog takes the detail's place.
    await publicDetail.getByRole('button', { name: '做同款' }).click();
    await visible(loginDialog(visitor.page));
    await hidden(publicDetail);
    await visitor.page.keyboard.press('Escape');

    await visitor.page.goto(`${server.baseUrl}/`);
    const latest = visitor.page.getByRole('region', { name: '最新作品' });
    await visible(latest.locator('.hf-public-card img'));
    await latest.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await screenshot(visitor.page, 'home-latest');
    await latest.getByRole('link', { name: /查看更多/ }).click();
    await visitor.page.waitForURL('**/omnibus');

    // Logged in, the author filters 灵感广场 by category and makes the same picture again.
    await page.goto(`${server.baseUrl}/omnibus`);
    await visible(page.locator('.hf-public-card'));
    await chooseCategory(page, '人像摄影');
    await visible(page.getByText('这个分类还没有公开作品'));
    await chooseCategory(page, '国风插画');
    await page
      .locator('.hf-public-card')
      .getByRole('button', { name: /^查看作品/ })
      .click();
    // Waiting starts before the click, so a navigation that lands while the click returns is not missed.
    await Promise.all([
      page.waitForURL('**/draw', { waitUntil: 'commit' }),
      dialog(page, '作品详情').getByRole('button', { name: '做同款' }).click(),
    ]);
    await visible(aside(page).getByText('模板：水墨山水'));
    await expect.poll(() => promptChips(page)).toEqual(chips);

    // Zip both, then delete the unpublished one.
    await openMyGallery(page);
    await page.getByRole('button', { name: '多选' }).click();
    await page.getByRole('checkbox', { name: '全选' }).check();
    await visible(page.getByText('已选 2 个'));
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      page.getByRole('button', { name: '打包下载' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    await page.getByRole('button', { name: '取消', exact: true }).click();

    await page.getByRole('button', { name: '多选' }).click();
    const unpublished = tiles(page).filter({ hasNot: page.locator('.hf-gallery-badge') });
    await unpublished.getByRole('button').click();
    await visible(page.getByText('已选 1 个'));
    await page.locator('.hf-gallery-selection').getByRole('button', { name: '删除' }).click();
    const confirm = confirmation(page, '删除这个作品？');
    await confirmWith(confirm, '删除');
    await visible(toast(page, '删除成功'));
    await expect.poll(() => tiles(page).count()).toBe(1);
    await context.close();

    // 作品审核: hiding the work takes it off 灵感广场.
    const admin = await loggedInOnDraw(journey, ADMIN);
    await admin.page.goto(`${server.baseUrl}/admin/review`);
    await visible(admin.page.getByRole('heading', { name: '作品审核' }));
    const row = admin.page.locator('.ant-table-row').filter({ hasText: user.nickname });
    await visible(row.getByText('正常'));
    await row.getByRole('button', { name: '隐藏' }).click();
    await confirmWith(popconfirm(admin.page), '隐藏');
    await visible(toast(admin.page, '已隐藏'));
    await visible(row.getByText('已隐藏'));
    await screenshot(admin.page, 'admin-review');
    await admin.context.close();

    await visitor.page.goto(`${server.baseUrl}/omnibus`);
    await visible(visitor.page.getByText('还没有公开作品'));
    expect(await visitor.page.locator('.hf-public-card').count()).toBe(0);
    await visitor.context.close();
  });
});
