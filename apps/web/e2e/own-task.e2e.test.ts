import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, newPage, randomSuffix, registerInvitedUser, screenshot, setupJourney } from './harness';
import { confirmWith, dialog, hidden, logInToDraw, popconfirm, seeToast, toast, visible } from './ui';

const journey = setupJourney();

interface TreeNode {
  id: string;
  name: string;
  children?: TreeNode[];
}

async function confirm(page: Page): Promise<void> {
  await confirmWith(popconfirm(page), '删除');
}

describe('我的任务: a copied task belongs to its owner', () => {
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`renames, edits and deletes a copy and its templates (${viewport.width})`, async () => {
      const { server, browser } = journey;
      const user = await registerInvitedUser(server);
      const tree = await api<TreeNode[]>(server, 'GET', '/api/task/tree', { token: user.token });
      const source = tree.data.flatMap((category) => category.children ?? []).find((task) => task.name === '头像生成');
      const copy = await api<{ id: string }>(server, 'POST', '/api/task/copy_to_mine', {
        token: user.token,
        body: { taskId: source?.id },
      });
      expect(copy.code, copy.msg).toBe(0);

      const { context, page } = await newPage(browser);
      await page.setViewportSize(viewport);
      await logInToDraw(page, server.baseUrl, user.account, user.password);

      await page.goto(`${server.baseUrl}/tasks/${copy.data.id}`);
      // The breadcrumb names the task at every size.
      const crumb = page.locator('.hf-breadcrumb');
      await visible(crumb.getByText('头像生成'));
      expect(await page.getByRole('button', { name: '复制到我的' }).count()).toBe(0);

      // 编辑: name and description of the copy.
      const name = `我的头像${randomSuffix(4)}`;
      await page.getByRole('button', { name: '编辑', exact: true }).click();
      const edit = dialog(page, '编辑任务');
      await visible(edit);
      await edit.getByLabel('任务名称').fill(name);
      await edit.getByLabel('简介').fill('只给自己用的头像任务');
      await edit.getByRole('button', { name: '保存' }).click();
      await seeToast(page, `「${name}」已保存`);
      await visible(crumb.getByText(name));
      await visible(page.getByText('只给自己用的头像任务'));

      // 重命名 and 删除 of its templates.
      const renamed = `我的二次元${randomSuffix(4)}`;
      await page.getByRole('button', { name: '重命名「二次元头像」' }).click();
      const rename = dialog(page, '重命名模板');
      await visible(rename);
      await rename.getByLabel('模板名称').fill(renamed);
      await rename.getByRole('button', { name: '保存' }).click();
      await seeToast(page, `已重命名为「${renamed}」`);
      await visible(page.locator('.hf-template-detail-card', { hasText: renamed }));

      await page.getByRole('button', { name: '删除「3D 卡通头像」' }).click();
      await confirm(page);
      await seeToast(page, '已删除模板「3D 卡通头像」');
      await hidden(page.locator('.hf-template-detail-card', { hasText: '3D 卡通头像' }));
      await screenshot(page, `own-task-${viewport.width}`);

      // 删除 of the task itself.
      await page.getByRole('button', { name: '删除', exact: true }).click();
      await confirm(page);
      await visible(toast(page, `已删除「${name}」`));
      await page.waitForURL('**/tasks');
      const mine = await api<TreeNode[]>(server, 'GET', '/api/task/tree/mine', { token: user.token });
      expect(mine.data[0]?.children ?? []).toEqual([]);
      await context.close();
    });
  }
});
