import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { pickTemplate, setNumber } from './draw-ui';
import {
  ADMIN,
  adminToken,
  api,
  invitedUserOnDraw,
  newPage,
  randomSuffix,
  type ScreenName,
  screenshot,
  setupJourney,
} from './harness';
import { dialog, hidden, logInToDraw, press, seeToast, visible } from './ui';

// A server of its own: it renames the built-in LoRAs and adds a task every user sees.
const journey = setupJourney({ ownServer: true });

/** Each size offers its own built-in demo LoRA, so the two runs do not rename the same one. */
const SIZES: { screen: ScreenName; width: number; lora: string }[] = [
  { screen: 'desktop', width: 1440, lora: 'hf_ink_wash' },
  { screen: 'phone', width: 390, lora: 'hf_pastel' },
];

interface MenuGroup {
  models: { id: string; modelName: string; family: string }[];
}

/** A published task with one txt2img template whose form has the LoRA 风格 field, allowing the built-in `loraName`. */
async function templateWithStyles(
  token: string,
  suffix: string,
  loraName: string,
): Promise<{ category: string; template: string }> {
  const { server } = journey;
  const loras = await api<{ id: string; name: string; loraName: string }[]>(server, 'GET', '/api/admin/loras', {
    token,
  });
  const allowed = loras.data.find((lora) => lora.loraName === loraName);
  expect(allowed, `the built-in LoRA ${loraName}`).toBeDefined();
  const menu = await api<MenuGroup[]>(server, 'GET', '/api/art/model/menu?scope=enabled', { token });
  const model = menu.data.flatMap((group) => group.models)[0];
  expect(model, 'a built-in model').toBeDefined();
  const names = { category: `风格${suffix}`, task: `风格任务${suffix}`, template: `风格模板${suffix}` };
  const category = await api<{ id: string }>(server, 'POST', '/api/task', {
    token,
    body: { name: names.category, published: true },
  });
  const task = await api<{ id: string }>(server, 'POST', '/api/task', {
    token,
    body: { parentId: category.data.id, name: names.task, published: true },
  });
  const field = (spec: Record<string, unknown>) => ({ show: true, disabled: false, checked: false, ...spec });
  const published = await api(server, 'POST', '/api/task/template/save/publish', {
    token,
    body: {
      taskId: task.data.id,
      name: names.template,
      taskStepList: [
        {
          name: '生成',
          generateMode: 'txt2img',
          promptGroup: [{ id: 'p1', groupName: '山水', promptText: 'landscape', custom: '0' }],
          parameters: { modelId: model!.id, width: 256, height: 256, steps: 8, batchSize: 1 },
          formConfig: [
            field({ type: 'select', name: 'modelId', text: '模型', url: '/api/options/models' }),
            field({
              type: 'select',
              name: 'loras',
              text: 'LoRA 风格',
              value: [],
              option: [{ label: allowed!.name, value: allowed!.id }],
            }),
            field({ type: 'number', name: 'width', text: '宽度', min: 256, max: 1024, step: 64, value: 256 }),
            field({ type: 'number', name: 'height', text: '高度', min: 256, max: 1024, step: 64, value: 256 }),
            field({ type: 'slider', name: 'steps', text: '采样步数', min: 1, max: 50, step: 1, value: 8 }),
            field({ type: 'number', name: 'seed', text: '随机种子', min: -1, max: 4294967295, value: -1 }),
          ],
        },
      ],
    },
  });
  expect(published.code, published.msg).toBe(0);
  return names;
}

/** The step's form: the aside on wide screens, the folded 参数设置 of the stacked flow on phones. */
async function parameters(page: Page, screen: ScreenName): Promise<Locator> {
  if (screen === 'desktop') return page.locator('.hf-draw-aside');
  const section = page.getByRole('region', { name: '参数设置' });
  const toggle = section.getByRole('button', { name: /参数设置/ });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await press(screen, toggle);
  await visible(section.getByRole('spinbutton', { name: '宽度', exact: true }));
  return section;
}

function chosenStyles(scope: Locator): Locator {
  return scope.getByRole('list', { name: '已选风格' });
}

async function promptChips(page: Page): Promise<string[]> {
  const chips = page.getByRole('region', { name: '正向提示词' }).locator('.hf-prompt-chip');
  return (await chips.allTextContents()).map((text) => text.trim());
}

/** The value of a row of a work's parameter table. */
async function parameter(scope: Locator, label: string): Promise<string> {
  const row = scope.locator('.ant-descriptions-item-label', { hasText: label });
  return ((await row.locator('xpath=following-sibling::td[1]').textContent()) ?? '').trim();
}

describe('LoRA styles: an admin offers one, a user picks it on /draw and gets it back with 做同款', () => {
  for (const { screen, width, lora } of SIZES) {
    it(`syncs, offers ${lora} with a cover and trigger words, picks, generates and recalls it (${width} px)`, async () => {
      const { server, browser } = journey;
      const suffix = randomSuffix(4);
      const styleName = `风格${suffix}`;
      const trigger = `e2e style ${suffix}`;
      const names = await templateWithStyles(await adminToken(server), suffix, lora);

      // 模型管理 › 同步模型: the built-in engine reports its models and demo LoRAs.
      const admin = await newPage(browser, screen);
      await logInToDraw(admin.page, server.baseUrl, ADMIN.account, ADMIN.password);
      await admin.page.goto(`${server.baseUrl}/model`);
      await visible(admin.page.getByRole('heading', { name: '模型管理' }));
      await press(screen, admin.page.getByRole('tab', { name: 'LoRA 风格' }));
      await press(screen, admin.page.getByRole('button', { name: '同步模型' }));
      const synced = dialog(admin.page, '同步结果');
      await visible(synced);
      await visible(synced.getByText(/：模型 \d+ 个，LoRA \d+ 个/));
      await screenshot(admin.page, `lora-sync-${width}`);
      await press(screen, synced.getByRole('button', { name: '知道了' }));
      await hidden(synced);

      // 编辑: a Chinese name, a cover and a trigger word; the table shows them.
      const row = admin.page.locator('.ant-table-row').filter({ hasText: lora });
      await visible(row);
      await press(screen, row.getByRole('button', { name: /^编辑「/ }));
      const edit = dialog(admin.page, '编辑风格');
      await visible(edit);
      await edit.getByLabel('风格名称').fill('');
      await press(screen, edit.getByRole('button', { name: '保存' }));
      await visible(edit.getByText('请填写风格名称'));
      await edit.getByLabel('风格名称').fill(styleName);
      const cover = await sharp({ create: { width: 60, height: 80, channels: 3, background: '#3366cc' } })
        .png()
        .toBuffer();
      await edit.locator('input[type=file]').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: cover });
      await visible(edit.getByRole('button', { name: '移除封面' }));
      const words = edit.getByLabel('触发词');
      await words.fill(trigger);
      await words.press('Enter');
      await visible(edit.locator('.ant-select-selection-item', { hasText: trigger }));
      await screenshot(admin.page, `lora-edit-${width}`);
      await press(screen, edit.getByRole('button', { name: '保存' }));
      await seeToast(admin.page, `「${styleName}」已保存`);
      await hidden(edit);
      const saved = admin.page.locator('.ant-table-row').filter({ hasText: styleName });
      await visible(saved.getByText(trigger));
      await visible(saved.getByRole('img', { name: styleName }));
      expect(await saved.getByRole('switch', { name: `启用「${styleName}」` }).getAttribute('aria-checked')).toBe(
        'true',
      );
      await screenshot(admin.page, `lora-admin-${width}`);
      await admin.context.close();

      // /draw: 风格 opens the picker; picking adds the LoRA at its weight and its trigger words as tags.
      const { user, context, page } = await invitedUserOnDraw(journey, screen);
      await pickTemplate(page, names.category, names.template);
      let form = await parameters(page, screen);
      await press(screen, form.getByRole('button', { name: /^风格/ }));
      const picker = page.locator('.hf-lora-picker-body');
      await visible(picker);
      await picker.getByRole('textbox', { name: '搜索风格' }).fill(suffix);
      const card = picker.getByRole('button', { name: styleName, exact: true });
      await visible(card);
      // The cover an admin uploaded opens for every user, as a model's does.
      await expect.poll(() => card.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(60);
      await screenshot(page, `lora-picker-${width}`);
      await press(screen, card);
      await expect.poll(() => card.getAttribute('aria-pressed')).toBe('true');
      await press(screen, page.getByRole('button', { name: '完成' }));
      await hidden(picker);
      await visible(chosenStyles(form).getByText(styleName));
      await visible(chosenStyles(form).getByText('0.8'));
      await expect.poll(() => promptChips(page)).toContain(trigger);
      await screenshot(page, `lora-chosen-${width}`);

      // 生成: the work is made with the LoRA.
      await setNumber(form, '随机种子', 7);
      await press(screen, page.locator('.hf-generate-bar').getByRole('button', { name: /生成$/ }));
      const progress = page.getByRole('region', { name: '生成进度' });
      await visible(progress.locator('.ant-tag', { hasText: '已完成' }), 60_000);
      const works = await api<{ list: { id: string }[] }>(server, 'GET', '/api/works/profile?current=1&pageSize=5', {
        token: user.token,
      });
      const workId = works.data.list[0]!.id;
      const detail = await api<{ parameters: { loras?: unknown } }>(
        server,
        'GET',
        `/api/works/profile/detail?id=${workId}`,
        {
          token: user.token,
        },
      );
      expect(detail.data.parameters.loras).toEqual([{ loraId: expect.any(String), weight: 0.8 }]);

      // Removing the style takes its trigger words out of the prompt too.
      if (screen === 'phone') await page.goto(`${server.baseUrl}/draw`);
      form = await parameters(page, screen);
      await press(screen, chosenStyles(form).getByRole('button', { name: `移除风格「${styleName}」` }));
      await hidden(chosenStyles(form));
      await expect.poll(() => promptChips(page)).not.toContain(trigger);

      // 我的作品: the detail names the style and its weight.
      await page.goto(`${server.baseUrl}/myGallery`);
      await page.locator('.hf-gallery-tile').first().getByRole('button').click();
      const workDetail = dialog(page, '作品详情');
      await visible(workDetail.locator('.ant-descriptions'));
      await expect.poll(() => parameter(workDetail, 'LoRA 风格')).toBe(`${styleName} 0.8`);
      await screenshot(page, `lora-work-detail-${width}`);

      // 再次生成 brings the style back to /draw, chip and trigger word.
      await press(screen, workDetail.getByRole('button', { name: '再次生成' }));
      await page.waitForURL('**/draw');
      form = await parameters(page, screen);
      await visible(chosenStyles(form).getByText(styleName));
      await expect.poll(() => promptChips(page)).toContain(trigger);

      // 做同款 on the shared work page does the same.
      const published = await api(server, 'POST', '/api/works/publish', {
        token: user.token,
        body: { id: workId, public: true, hidePrompt: false },
      });
      expect(published.code, published.msg).toBe(0);
      await press(screen, chosenStyles(form).getByRole('button', { name: `移除风格「${styleName}」` }));
      await hidden(chosenStyles(form));
      await page.goto(`${server.baseUrl}/work/${workId}`);
      await visible(page.getByText(`LoRA 风格：${styleName} 0.8`));
      await screenshot(page, `lora-shared-work-${width}`);
      // A guest who opens the shared link reads the style's name too (the work's detail names it).
      const guest = await newPage(browser, screen);
      await guest.page.goto(`${server.baseUrl}/work/${workId}`);
      await visible(guest.page.getByRole('button', { name: '做同款' }));
      await visible(guest.page.getByText(`LoRA 风格：${styleName} 0.8`));
      await guest.context.close();
      await press(screen, page.getByRole('button', { name: '做同款' }));
      await page.waitForURL('**/draw');
      form = await parameters(page, screen);
      await visible(chosenStyles(form).getByText(styleName));
      await screenshot(page, `lora-make-same-${width}`);

      // 自由创作: the same picker; the trigger words join the typed prompt and leave with the style.
      await page.goto(`${server.baseUrl}/chuangyi`);
      const prompt = page.getByRole('textbox', { name: '画面描述' });
      await prompt.fill('一座山');
      const free = page.getByRole('region', { name: '参数设置' });
      await press(screen, free.getByRole('button', { name: /^风格/ }));
      await visible(picker);
      await press(screen, picker.getByRole('button', { name: styleName, exact: true }));
      await press(screen, page.getByRole('button', { name: '完成' }));
      await hidden(picker);
      await expect.poll(() => prompt.inputValue()).toContain(trigger);
      await press(screen, chosenStyles(free).getByRole('button', { name: `移除风格「${styleName}」` }));
      await expect.poll(() => prompt.inputValue()).toBe('一座山');
      await context.close();
    });
  }
});
