import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type A1111Double, startA1111Double } from '../../server/test/doubles/a1111-double';
import { ADMIN, adminToken, api, newPage, randomSuffix, screenshot, setupJourney } from './harness';
import { chooseOption, confirmWith, dialog, hidden, logInToDraw, popconfirm, seeToast, visible } from './ui';

// A server of its own: its backends and model groups are offered on every user's /draw.
const journey = setupJourney({ ownServer: true });

/** Each size gets its own A1111 with its own checkpoints: a checkpoint can be imported only once per engine. */
const SIZES = [
  {
    name: '桌面',
    viewport: { width: 1440, height: 900 },
    checkpoints: ['e2eDesk-real.safetensors [1111aaaa11]', 'e2eDesk-anime.safetensors [2222bbbb22]'],
  },
  {
    name: '手机',
    viewport: { width: 390, height: 844 },
    checkpoints: ['e2ePhone-real.safetensors [3333cccc33]', 'e2ePhone-anime.safetensors [4444dddd44]'],
  },
] as const;

const doubles: A1111Double[] = [];
beforeAll(async () => {
  for (const size of SIZES) doubles.push(await startA1111Double({ models: [...size.checkpoints] }));
});
afterAll(async () => {
  await Promise.all(doubles.map((double) => double.close()));
});

/** A group's segment, labelled with its model count (the radio inside is visually hidden). */
const groupTab = (page: Page, label: string) => page.locator('.ant-segmented').getByText(label, { exact: true });

const row = (page: Page, text: string) => page.locator('.ant-table-row').filter({ hasText: text });

/** Popconfirm's 删除 after a row's 删除 (the popup is outside the row), pressed again if the press was lost. */
async function confirmDelete(page: Page): Promise<void> {
  await confirmWith(popconfirm(page), '删除');
}

describe('模型管理: groups, models and import from a registered A1111', () => {
  for (const [index, size] of SIZES.entries()) {
    it(`creates a group, imports checkpoints, switches, edits and deletes models (${size.name})`, async () => {
      const { server, browser } = journey;
      const suffix = randomSuffix(4);
      const backendName = `E2E A1111 ${size.name}`;
      const registered = await api(server, 'POST', '/api/admin/backends', {
        token: await adminToken(server),
        body: { name: backendName, kind: 'sdwebui', baseUrl: doubles[index]!.url, models: [], enabled: true },
      });
      expect(registered.code, registered.msg).toBe(0);

      const { context, page } = await newPage(browser);
      await page.setViewportSize(size.viewport);
      await logInToDraw(page, server.baseUrl, ADMIN.account, ADMIN.password);
      await page.goto(`${server.baseUrl}/model`);
      await visible(page.getByRole('heading', { name: '模型管理' }));

      // 新建分组: a group is a model tab of the draw page.
      const group = `导入${suffix}`;
      await page.getByRole('button', { name: '新建分组' }).click();
      const groupDialog = dialog(page, '新建分组');
      await visible(groupDialog);
      await groupDialog.getByLabel('分组名称').fill(group);
      await groupDialog.getByRole('button', { name: '保存' }).click();
      await seeToast(page, '分组已创建');
      await hidden(groupDialog);
      await visible(groupTab(page, `${group}（0）`));

      // 从后端导入: the backend's checkpoints as checkboxes, into the chosen group.
      await page.getByRole('button', { name: '从后端导入' }).click();
      const importDialog = dialog(page, '从后端导入模型');
      await visible(importDialog);
      await chooseOption(page, importDialog.getByLabel('推理后端'), backendName);
      const choices = importDialog.getByRole('group', { name: '要导入的模型' });
      for (const checkpoint of size.checkpoints) await visible(choices.getByText(checkpoint));
      await choices.getByRole('checkbox', { name: new RegExp(size.checkpoints[0].replace(/[[\].]/g, '\\$&')) }).check();
      await choices.getByRole('checkbox', { name: new RegExp(size.checkpoints[1].replace(/[[\].]/g, '\\$&')) }).check();
      await importDialog.getByLabel('基础模型').fill('SD 1.5');
      await screenshot(page, `model-import-${size.viewport.width}`);
      await importDialog.getByRole('button', { name: '导入' }).click();
      await seeToast(page, '已导入 2 个模型');
      await hidden(importDialog);
      await visible(groupTab(page, `${group}（2）`));
      const [realTitle, animeTitle] = size.checkpoints;
      const realName = realTitle.split('.')[0]!;
      const animeName = animeTitle.split('.')[0]!;
      await visible(row(page, realTitle));
      await visible(row(page, animeTitle));

      // 启用 switch: withdraws a model from the draw page.
      const realSwitch = row(page, realTitle).getByRole('switch', { name: `启用「${realName}」` });
      await expect.poll(() => realSwitch.getAttribute('aria-checked')).toBe('true');
      await realSwitch.click();
      await seeToast(page, `已停用「${realName}」`);
      await expect.poll(() => realSwitch.getAttribute('aria-checked')).toBe('false');

      // 编辑: rename a model.
      const renamed = `动漫${suffix}`;
      await row(page, animeTitle)
        .getByRole('button', { name: `编辑「${animeName}」` })
        .click();
      const editDialog = dialog(page, '编辑模型');
      await visible(editDialog);
      await editDialog.getByLabel('模型名称').fill(renamed);
      await editDialog.getByRole('button', { name: '保存' }).click();
      await seeToast(page, `「${renamed}」已保存`);
      await visible(row(page, renamed));

      // 新建模型 by hand, then delete it with confirmation.
      const manual = `手动${suffix}`;
      await page.getByRole('button', { name: '新建模型' }).click();
      const createDialog = dialog(page, '新建模型');
      await visible(createDialog);
      await createDialog.getByLabel('模型名称').fill(manual);
      await createDialog.getByLabel('基础模型', { exact: true }).fill('SDXL');
      await chooseOption(page, createDialog.getByLabel('基础模型类型'), 'SDXL');
      await createDialog.getByLabel('后端模型名').fill(`manual-${suffix}.safetensors`);
      await createDialog.getByRole('button', { name: '添加' }).click();
      await seeToast(page, `已添加模型「${manual}」`);
      await visible(row(page, manual));
      await visible(groupTab(page, `${group}（3）`));
      await row(page, manual)
        .getByRole('button', { name: `删除「${manual}」` })
        .click();
      await confirmDelete(page);
      await seeToast(page, `已删除模型「${manual}」`);
      await hidden(row(page, manual));

      // A group with models cannot go; the reason is shown.
      await page.getByRole('button', { name: '删除分组' }).click();
      await confirmDelete(page);
      await seeToast(page, '分组下还有模型，请先删除或移走这些模型');
      await visible(groupTab(page, `${group}（2）`));
      await screenshot(page, `model-admin-${size.viewport.width}`);

      // What the draw page offers follows: the disabled model is gone from the enabled menu.
      const enabled = await api<{ name: string; models: { modelName: string }[] }[]>(
        server,
        'GET',
        '/api/art/model/menu?scope=enabled',
        { token: await adminToken(server) },
      );
      const offered = enabled.data.find((item) => item.name === group)?.models.map((model) => model.modelName);
      expect(offered).toEqual([renamed]);
      await context.close();
    });
  }
});
