import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pickTemplate, setNumber } from './draw-ui';
import { invitedUserOnDraw, newPage, type RegisteredUser, screenshot, setupJourney, type TestServer } from './harness';
import {
  chooseUserMenuItem,
  confirmWith,
  dialog,
  hidden,
  logInWhenAsked,
  popconfirm,
  toast,
  toasts,
  visible,
} from './ui';

const journey = setupJourney();

const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** One small image (256×256, 10 steps), waiting until it is done and 生成 can be pressed again. */
async function generate(page: Page): Promise<void> {
  const button = page.locator('.hf-generate-button');
  await expect.poll(() => button.isEnabled()).toBe(true);
  await button.click();
  await visible(page.getByRole('region', { name: '生成进度' }).locator('.ant-tag', { hasText: '已完成' }), 30_000);
  await expect.poll(() => button.isEnabled()).toBe(true);
}

function chip(panel: Locator, label: string): Locator {
  return panel.locator('.hf-prompt-chip', { hasText: label });
}

/** As the Photoshop plugin does: upload the document with the user's token and keep the fileId. */
async function uploadAsPlugin(server: TestServer, user: RegisteredUser): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([PNG_1PX], { type: 'image/png' }), 'document.png');
  const res = await fetch(`${server.baseUrl}/api/files/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${user.token}` },
    body: form,
  });
  const body = (await res.json()) as { code: number; data: { fileId: string } };
  expect(body.code).toBe(0);
  return body.data.fileId;
}

describe('prompt history, translation and the Photoshop plugin', () => {
  it('keeps, pins, imports, deletes and searches history; translates a Chinese word; downloads the plugin', async () => {
    const { server, browser } = journey;
    const { user, context, page } = await invitedUserOnDraw(journey);

    await pickTemplate(page, '国风插画', '国潮插画');
    const aside = page.locator('.hf-draw-aside');
    for (const [label, value] of [
      ['宽度', 256],
      ['高度', 256],
      ['采样步数', 10],
      ['生成数量', 1],
    ] as const) {
      await setNumber(aside, label, value);
    }

    // First generation with an English word of one's own.
    const positive = page.getByRole('region', { name: '正向提示词' });
    const wordInput = positive.getByRole('textbox', { name: '自定义提示词' });
    await wordInput.fill('cyberpunk');
    await wordInput.press('Enter');
    await visible(chip(positive, 'cyberpunk'));
    await generate(page);

    // Second generation with a Chinese word: the chip keeps the Chinese; the English the model will read shows
    // under the prompts, where it can be changed.
    await wordInput.fill('远山');
    await wordInput.press('Enter');
    await visible(chip(positive, '远山'));
    expect(await wordInput.inputValue()).toBe('');
    const english = page.getByRole('textbox', { name: '「远山」的英文' });
    await visible(english);
    await expect.poll(() => english.inputValue()).toMatch(/^[\x20-\x7e]+$/);
    await screenshot(page, 'translate-chip');
    await page.mouse.move(0, 0);
    await generate(page);

    // 历史: two entries, newest first.
    const drawer = page.locator('.ant-drawer').filter({ hasText: '提示词历史' });
    const entries = drawer.locator('.hf-history-entry');
    await positive.getByRole('button', { name: '历史' }).click();
    await visible(entries.nth(1));
    expect(await entries.count()).toBe(2);
    await visible(entries.first().locator('.hf-history-chip', { hasText: '远山' }));
    expect(await entries.nth(1).locator('.hf-history-chip', { hasText: '远山' }).count()).toBe(0);
    await visible(entries.first().getByText('国潮插画'));

    // Pin the older one: it moves first with the badge; unpin puts it back.
    await entries.nth(1).getByRole('button', { name: '置顶' }).click();
    await visible(entries.first().getByText('已置顶'));
    expect(await entries.first().locator('.hf-history-chip', { hasText: '远山' }).count()).toBe(0);
    await screenshot(page, 'history-drawer');
    await entries.first().getByRole('button', { name: '取消置顶' }).click();
    await hidden(drawer.getByText('已置顶'));
    await visible(entries.first().locator('.hf-history-chip', { hasText: '远山' }));
    await page.keyboard.press('Escape');
    await hidden(drawer.locator('.ant-drawer-title'));

    // 清空自定义 asks first, says what went and offers 撤销, which puts the words back.
    const clean = async () => {
      await positive.getByRole('button', { name: '清空自定义' }).click();
      await confirmWith(popconfirm(page, '清空 2 个自定义词？'), '清空');
      await hidden(chip(positive, '远山'));
      await hidden(chip(positive, 'cyberpunk'));
    };
    await clean();
    const cleaned = toast(page, '已清空 2 个自定义词');
    await visible(cleaned);
    await screenshot(page, 'clean-custom-undo');
    await cleaned.getByRole('button', { name: '撤销' }).click();
    await visible(chip(positive, '远山'));
    await visible(chip(positive, 'cyberpunk'));

    // Clean again, then import the newest entry: they come back.
    await clean();
    await positive.getByRole('button', { name: '历史' }).click();
    await visible(entries.nth(1));
    await entries.first().getByRole('button', { name: '导入' }).click();
    await visible(toast(page, '导入成功'));
    await hidden(drawer.locator('.ant-drawer-title'));
    await visible(chip(positive, '远山'));
    await visible(chip(positive, 'cyberpunk'));

    // Importing the same entry again adds nothing, and says so (the drawer stays open).
    await hidden(toast(page, '导入成功'));
    await positive.getByRole('button', { name: '历史' }).click();
    await visible(entries.nth(1));
    await entries.first().getByRole('button', { name: '导入' }).click();
    await visible(toast(page, '没有新的提示词：这条记录的词都已在当前提示词中'));
    await visible(drawer.locator('.ant-drawer-title'));
    await page.keyboard.press('Escape');
    await hidden(drawer.locator('.ant-drawer-title'));

    // 编辑 puts close buttons on the words; one closes, 完成 takes the buttons away again.
    await hidden(chip(positive, '远山').locator('.ant-tag-close-icon'));
    await positive.getByRole('button', { name: '编辑' }).click();
    await chip(positive, 'cyberpunk').locator('.ant-tag-close-icon').click();
    await hidden(chip(positive, 'cyberpunk'));
    await positive.getByRole('button', { name: '完成' }).click();
    await hidden(chip(positive, '远山').locator('.ant-tag-close-icon'));
    await visible(chip(positive, '远山'));

    // Delete the older entry after confirming: one is left.
    await positive.getByRole('button', { name: '历史' }).click();
    await visible(entries.nth(1));
    await entries.nth(1).getByRole('button', { name: '删除' }).click();
    await confirmWith(popconfirm(page, '删除这条历史记录？'), '删除');
    await expect.poll(() => entries.count()).toBe(1);
    await visible(entries.first().locator('.hf-history-chip', { hasText: '远山' }));

    // Search by a word, then by one that was never used.
    const search = drawer.getByLabel('搜索历史记录');
    await search.fill('远山');
    await search.press('Enter');
    await expect.poll(() => entries.count()).toBe(1);
    await search.fill('没有用过的词');
    await search.press('Enter');
    await visible(drawer.getByText('没有包含“没有用过的词”的历史记录'));
    await page.keyboard.press('Escape');
    await hidden(drawer.locator('.ant-drawer-title'));

    // The Photoshop plugin hands a document over: it waits for an image template, then fills its field.
    const fileId = await uploadAsPlugin(server, user);
    await page.goto(`${server.baseUrl}/draw?initImage=${fileId}`);
    await visible(toast(page, '请先选择带「上传图片」的图生图模板'));
    await visible(page.getByText('已收到 Photoshop 发来的图片'));
    expect(new URL(page.url()).search).toBe('');
    // One toast at a time (spec §8): let the hint go before the next one.
    await hidden(toasts(page));
    await pickTemplate(page, '人像摄影', '蓝底证件照');
    await visible(toast(page, '已从 Photoshop 导入图片'));
    await visible(aside.locator(`img[src^="/api/files/${fileId}?e="]`));
    await hidden(page.getByText('已收到 Photoshop 发来的图片'));

    // 自由创作 翻译: the Chinese becomes English in place, 撤销 brings it back.
    await page.goto(`${server.baseUrl}/chuangyi`);
    const freePrompt = page.getByRole('textbox', { name: '画面描述' });
    await freePrompt.fill('水墨画，远山');
    await page.getByRole('button', { name: '翻译画面描述' }).click();
    await visible(page.getByText('已翻译为英文'));
    const englishPrompt = await freePrompt.inputValue();
    expect(englishPrompt).toMatch(/^[\x20-\x7e]+$/);
    expect(englishPrompt).toContain(',');
    await screenshot(page, 'chuangyi-translate');
    await page.getByRole('button', { name: '撤销翻译画面描述' }).click();
    await expect.poll(() => freePrompt.inputValue()).toBe('水墨画，远山');

    // 插件下载: a dialog with the steps and a .ccx download.
    await chooseUserMenuItem(page, '插件下载');
    const plugin = dialog(page, '插件下载');
    await visible(plugin);
    await visible(plugin.getByText('适用于 Photoshop 2022', { exact: false }));
    await screenshot(page, 'plugin-download');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      plugin.getByRole('link', { name: /下载插件/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.ccx$/);
    await context.close();

    // A visitor not yet logged in who follows the plugin's link logs in and still gets the image.
    const visitor = await newPage(browser);
    await visitor.page.goto(`${server.baseUrl}/draw?initImage=${fileId}`);
    await logInWhenAsked(visitor.page, user.account, user.password);
    await visitor.page.waitForURL('**/draw');
    await visible(visitor.page.getByText('已收到 Photoshop 发来的图片'));
    await visitor.context.close();
  });
});
