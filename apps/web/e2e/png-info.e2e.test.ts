import { readPngInfo } from '@huafang/contracts';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { addPngText } from '../../server/src/engines/png-text';
import { invitedUserOnDraw, type ScreenName, screenshot, setupJourney } from './harness';
import { dialog, hidden, visible } from './ui';

const journey = setupJourney();

/** A PNG as AUTOMATIC1111 saves one: its `parameters` text in a tEXt chunk (iTXt when not Latin-1). */
async function a1111Png(parameters: string): Promise<Buffer> {
  const picture = await sharp({ create: { width: 32, height: 48, channels: 3, background: '#5a7d9a' } })
    .png()
    .toBuffer();
  return addPngText(picture, 'parameters', parameters);
}

const MATCHED = [
  'ink wash, (misty mountains:1.2), 月下',
  'Negative prompt: lowres, watermark',
  'Steps: 12, Sampler: DPM++ 2M, Schedule type: Karras, CFG scale: 5.5, Seed: 24680, Size: 384x640, ' +
    'Model hash: cbd5113d77, Model: builtin-ink, Version: v1.10.1',
].join('\n');

const UNMATCHED = [
  'red lantern, night market, <lora:missing_style:0.7>',
  'Negative prompt: blurry',
  'Steps: 9, Sampler: Euler a, Schedule type: Automatic, CFG scale: 4, Seed: 13579, Size: 512x512, ' +
    'Model hash: 879db523c3, Model: dreamshaper_8, Version: v1.10.1',
].join('\n');

/** Opens 国潮插画 from the task dialog; the page's title names it on every screen. */
async function openTemplate(page: Page): Promise<void> {
  await page
    .getByRole('button', { name: /选择模板|切换/ })
    .first()
    .click();
  const select = dialog(page, '选择任务模板');
  await visible(select);
  const tab = select.getByRole('tab', { name: '国风插画' });
  await expect
    .poll(
      async () => {
        if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
        return tab.getAttribute('aria-selected');
      },
      { timeout: 15_000 },
    )
    .toBe('true');
  await select.getByRole('button', { name: '选择模板 国潮插画' }).click();
  await hidden(select);
  await visible(page.getByRole('heading', { name: '国潮插画' }));
}

/** Where the step's parameters are: the aside on a desktop, the folded 参数设置 below the prompts on a phone. */
async function parameters(page: Page, screen: ScreenName): Promise<Locator> {
  if (screen === 'desktop') return page.locator('.hf-draw-aside');
  const region = page.getByRole('region', { name: '参数设置' });
  const toggle = region.getByRole('button', { name: /参数设置/ });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  return region;
}

const numberIn = (scope: Locator, label: string) => scope.getByRole('spinbutton', { name: label, exact: true });

/** Drags a file onto the page and lets go over the prompts, as a person drops a picture from their desktop. */
async function dropFile(page: Page, name: string, bytes: Buffer): Promise<void> {
  const transfer = await page.evaluateHandle(
    ({ name, data }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], name, { type: 'image/png' }));
      return transfer;
    },
    { name, data: [...bytes] },
  );
  const target = page.getByRole('region', { name: '正向提示词' });
  await target.dispatchEvent('dragenter', { dataTransfer: transfer });
  await visible(page.getByText('松开鼠标，读取图片里的提示词和参数'));
  await target.dispatchEvent('drop', { dataTransfer: transfer });
}

describe('PNG info read on /draw', () => {
  for (const screen of ['desktop', 'phone'] as const) {
    it(`a picked AUTOMATIC1111 PNG fills the form, a dropped one names what the site lacks, the work made reads back and 再次生成 restores its model (${screen})`, async () => {
      const { context, page } = await invitedUserOnDraw(journey, screen);
      await openTemplate(page);
      const positive = page.getByRole('region', { name: '正向提示词' });
      const negative = page.getByRole('region', { name: '反向提示词' });

      await page.getByTestId('png-info-input').setInputFiles({
        name: 'a1111.png',
        mimeType: 'image/png',
        buffer: await a1111Png(MATCHED),
      });
      const notice = page.getByRole('region', { name: '读取图片信息' });
      await visible(notice.getByText('已读取 AUTOMATIC1111 / Forge 图片的生成信息'));
      await visible(
        notice.getByText(
          /已填入：提示词、反向提示词、采样步数、提示词相关性、随机种子、尺寸、采样器、模型「水墨国风」/,
        ),
      );
      for (const word of ['ink wash', '(misty mountains:1.2)', '月下']) {
        await visible(positive.getByText(word, { exact: true }));
      }
      await visible(negative.getByText('watermark', { exact: true }));
      // The template's own words give way to the picture's.
      expect(await positive.getByText('国潮', { exact: true }).count()).toBe(0);

      const form = await parameters(page, screen);
      await expect.poll(() => numberIn(form, '采样步数').inputValue()).toBe('12');
      expect(await numberIn(form, '提示词相关性').inputValue()).toBe('5.5');
      expect(await numberIn(form, '宽度').inputValue()).toBe('384');
      expect(await numberIn(form, '高度').inputValue()).toBe('640');
      expect(await numberIn(form, '随机种子').inputValue()).toBe('24680');
      expect(await numberIn(form, '生成数量').inputValue()).toBe('1');
      await visible(form.getByText('DPM++ 2M Karras'));
      await visible(form.locator('.hf-model-select').getByText('水墨国风'));
      await screenshot(page, `png-info-filled-${screen}`);

      await dropFile(page, 'elsewhere.png', await a1111Png(UNMATCHED));
      await visible(notice.getByText('本站没有模型「dreamshaper_8」，已保留原来的模型'));
      await visible(notice.getByText('本站没有 LoRA「missing_style」，已忽略'));
      await hidden(page.getByText('松开鼠标，读取图片里的提示词和参数'));
      await visible(positive.getByText('night market', { exact: true }));
      await expect.poll(() => numberIn(form, '采样步数').inputValue()).toBe('9');
      await visible(form.getByText('Euler a'));
      // The model the site lacks leaves the one chosen before.
      await visible(form.locator('.hf-model-select').getByText('水墨国风'));
      await screenshot(page, `png-info-unmatched-${screen}`);

      await notice.getByRole('button', { name: '关闭图片信息提示' }).click();
      await hidden(notice.getByText('本站没有模型「dreamshaper_8」，已保留原来的模型'));

      // Painted with those settings, the work's own PNG reads back the same recipe, 画坊's.
      await page.locator('.hf-generate-button').click();
      await visible(page.getByRole('region', { name: '生成进度' }).locator('.ant-tag', { hasText: '已完成' }), 60_000);
      await page.goto(`${journey.server.baseUrl}/myGallery`);
      await visible(page.getByRole('heading', { name: '我的作品' }));
      await page.locator('.hf-gallery-tile').first().getByRole('button').click();
      const detail = dialog(page, '作品详情');
      const src = await detail.locator('.hf-work-original img').first().getAttribute('src');
      const bytes = await page.evaluate(
        async (url) => [...new Uint8Array(await (await fetch(url)).arrayBuffer())],
        src!,
      );
      expect(await readPngInfo(new Uint8Array(bytes))).toMatchObject({
        source: 'huafang',
        prompt: 'red lantern, night market',
        negativePrompt: 'blurry',
        steps: 9,
        sampler: 'Euler a',
        cfgScale: 4,
        seed: 13579,
        width: 512,
        height: 512,
        model: 'builtin-ink',
        modelHash: 'cbd5113d77',
      });

      // 再次生成 brings the work's model back over the template's own (工笔重彩).
      await page.keyboard.press('Escape');
      await hidden(detail);
      await page.goto(`${journey.server.baseUrl}/draw`);
      await openTemplate(page);
      await visible((await parameters(page, screen)).locator('.hf-model-select').getByText('工笔重彩'));
      await page.goto(`${journey.server.baseUrl}/myGallery`);
      await page.locator('.hf-gallery-tile').first().getByRole('button').click();
      await dialog(page, '作品详情').getByRole('button', { name: '再次生成' }).click();
      await page.waitForURL('**/draw');
      const recalled = await parameters(page, screen);
      await visible(recalled.locator('.hf-model-select').getByText('水墨国风'));
      expect(await numberIn(recalled, '随机种子').inputValue()).toBe('13579');
      await context.close();
    });
  }
});
