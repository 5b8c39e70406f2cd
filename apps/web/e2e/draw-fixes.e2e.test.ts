import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { pickTemplate, setNumber } from './draw-ui';
import { generateAndWait, invitedUserOnDraw, screenshot, setupJourney } from './harness';
import { chooseOption, confirmation, confirmWith, dialog, hidden, toast, visible } from './ui';

const journey = setupJourney();
const PHONE = { width: 390, height: 844 };

function aside(page: Page): Locator {
  return page.locator('.hf-draw-aside');
}

function generateButton(page: Page): Locator {
  return page.locator('.hf-generate-button');
}

function progressPanel(page: Page): Locator {
  return page.getByRole('region', { name: '生成进度' });
}

function tiles(page: Page): Locator {
  return page.locator('.hf-gallery-tile');
}

async function smallParameters(page: Page): Promise<void> {
  for (const [label, value] of Object.entries({ 宽度: 256, 高度: 256, 采样步数: 8, 生成数量: 1 })) {
    await setNumber(aside(page), label, value);
  }
}

async function openMyGallery(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/myGallery`);
  await visible(page.getByRole('heading', { name: '我的作品' }));
}

describe('draw fixes', () => {
  it('a ControlNet template waits for its 参考图, shown first with the preprocessor preview', async () => {
    const { context, page } = await invitedUserOnDraw(journey);
    await pickTemplate(page, '线稿与草图', '线稿上色');

    // Without the reference image 生成 waits and says which image is missing.
    await visible(page.locator('.hf-generate-bar').getByText('请先上传线稿控制的参考图'));
    expect(await generateButton(page).isDisabled()).toBe(true);
    // The upload is the first field of the step, above the model and sampling settings.
    const picker = aside(page).getByRole('button', { name: '参考图' });
    const pickerBox = await picker.boundingBox();
    const stepsBox = await aside(page).getByRole('spinbutton', { name: '采样步数', exact: true }).boundingBox();
    expect(pickerBox && stepsBox && pickerBox.y < stepsBox.y).toBe(true);

    const lineart = await sharp({ create: { width: 128, height: 128, channels: 3, background: '#ffffff' } })
      .composite([
        {
          input: await sharp({ create: { width: 40, height: 40, channels: 3, background: '#000000' } })
            .png()
            .toBuffer(),
          left: 44,
          top: 44,
        },
      ])
      .png()
      .toBuffer();
    await aside(page)
      .locator('input[type=file]')
      .first()
      .setInputFiles({ name: 'lineart.png', mimeType: 'image/png', buffer: lineart });
    await visible(aside(page).getByRole('img', { name: '预处理预览' }), 30_000);
    await visible(page.locator('.hf-generate-bar').getByText(/预计消耗 \d+ 点/));
    expect(await generateButton(page).isEnabled()).toBe(true);
    await screenshot(page, 'controlnet-reference');
    // On a phone the parameters fold below the prompts; the reference and its preview stay open above the fold.
    await page.setViewportSize(PHONE);
    const parameters = page.getByRole('region', { name: '参数设置' });
    await visible(parameters.getByRole('button', { name: /参数设置/ }));
    expect(await parameters.getByRole('button', { name: /参数设置/ }).getAttribute('aria-expanded')).toBe('false');
    const preview = parameters.getByRole('img', { name: '预处理预览' });
    await visible(preview, 30_000);
    await preview.scrollIntoViewIfNeeded();
    await screenshot(page, 'controlnet-reference-phone');
    await context.close();
  });

  it('做同款 of a step-2 work opens a runnable step; switching step clears; deleting from the detail; 自由创作', async () => {
    const { server } = journey;
    const { user, context, page } = await invitedUserOnDraw(journey);

    // Step 1, then 下一步 (高清放大) on its result: two works, the newer one from step 2.
    await pickTemplate(page, '国风插画', '国潮插画');
    await smallParameters(page);
    await generateButton(page).click();
    await visible(progressPanel(page).locator('.ant-tag', { hasText: '已完成' }), 30_000);
    await page
      .getByRole('region', { name: '本次结果' })
      .getByRole('button', { name: /下一步：高清放大/ })
      .click();
    await visible(aside(page).getByRole('tab', { name: '步骤 2 高清放大', selected: true }));
    await visible(page.getByRole('region', { name: '本次结果' }).getByText('512×512'), 30_000);

    // Choosing step 1 by hand leaves the earlier run behind: no stale progress, no old results.
    await aside(page).getByRole('tab', { name: '步骤 1 生成' }).click();
    await hidden(progressPanel(page));
    const results = page.getByRole('region', { name: '本次结果' });
    await visible(results.getByText('调整提示词和参数后点「生成」'));
    expect(await results.locator('.hf-result-card').count()).toBe(0);
    expect(await page.getByRole('region', { name: '更早的结果' }).count()).toBe(0);
    expect(await generateButton(page).isEnabled()).toBe(true);

    // Publish the step-2 work, then 做同款 from 灵感广场.
    await openMyGallery(page, server.baseUrl);
    await visible(tiles(page).nth(1));
    await tiles(page).first().getByRole('button').click();
    const detail = dialog(page, '作品详情');
    await visible(detail.getByText('512 × 512'));
    await detail.getByRole('button', { name: '发布到广场' }).click();
    await visible(toast(page, '已发布到灵感广场'));
    await page.keyboard.press('Escape');
    await hidden(detail);
    // The lane's server holds other journeys' works too: this user's card is the one.
    await page.goto(`${server.baseUrl}/omnibus`);
    await page
      .locator('.hf-public-card')
      .filter({ hasText: user.nickname })
      .getByRole('button', { name: /^查看作品/ })
      .click();
    await dialog(page, '作品详情').getByRole('button', { name: '做同款' }).click();
    await page.waitForURL('**/draw');
    await visible(aside(page).getByText('模板：国潮插画'));
    await visible(aside(page).getByRole('tab', { name: '步骤 1 生成', selected: true }));
    expect(await page.getByText('这一步使用上一步的结果图').count()).toBe(0);
    expect(await progressPanel(page).count()).toBe(0);
    await expect.poll(() => generateButton(page).isEnabled()).toBe(true);
    await screenshot(page, 'make-same-step-two');

    // A free creation (made through the API, as /chuangyi does) is found with the 自由创作 filter.
    await generateAndWait(server, user, { prompt: 'city', steps: 8, batchSize: 1 });

    await page.setViewportSize(PHONE);
    await openMyGallery(page, server.baseUrl);
    await visible(tiles(page).nth(2));
    await chooseOption(page, page.getByLabel('按模板筛选'), '自由创作');
    await expect.poll(() => tiles(page).count()).toBe(1);
    await screenshot(page, 'my-gallery-free-filter-phone');

    // Deleting from the detail dialog: 删除成功, and no 错误提示 for the work that is gone.
    await tiles(page).first().getByRole('button').click();
    const own = dialog(page, '作品详情');
    await own.getByRole('button', { name: '删除' }).click();
    const confirm = confirmation(page, '删除这个作品？');
    await confirmWith(confirm, '删除');
    await visible(toast(page, '删除成功'));
    await visible(page.getByText('没有符合条件的作品'));
    await page.waitForLoadState('networkidle');
    expect(await page.locator('.ant-notification-notice').filter({ hasText: '错误提示' }).count()).toBe(0);
    await screenshot(page, 'my-gallery-deleted-phone');
    await context.close();
  });
});
