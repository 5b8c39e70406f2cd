import { describe, expect, it } from 'vitest';
import { ADMIN, adminToken, api, loggedInOnDraw, screenshot, setupJourney } from './harness';
import { visible } from './ui';

// A server of its own: it adds an unpublished task to the tree every user picks from.
const journey = setupJourney({ ownServer: true });

const step = {
  name: '生成',
  generateMode: 'txt2img',
  promptGroup: [{ id: 'p1', groupName: '山', promptText: 'mountain', custom: '0' }],
  formConfig: [
    {
      type: 'select',
      name: 'sampler',
      text: '采样器',
      show: true,
      disabled: false,
      checked: false,
      url: '/api/options/samplers',
    },
  ],
};

describe('found fixes: the template editor after 发布', () => {
  for (const screen of ['desktop', 'phone'] as const) {
    it(`says a template in an unpublished task is not visible yet and offers 发布任务 at ${screen} size`, async () => {
      const { server } = journey;
      const token = await adminToken(server);
      const category = await api<{ id: string }>(server, 'POST', '/api/task', {
        token,
        body: { name: `分类${screen}`, published: true },
      });
      const task = await api<{ id: string }>(server, 'POST', '/api/task', {
        token,
        body: { parentId: category.data.id, name: `未发布任务${screen}`, published: false },
      });
      const draft = await api<{ templateId: string }>(server, 'POST', '/api/task/template/save/draft', {
        token,
        body: { taskId: task.data.id, name: `待发布模板${screen}`, taskStepList: [step] },
      });

      const { context, page } = await loggedInOnDraw(journey, ADMIN, screen);
      await page.goto(`${server.baseUrl}/admin?node=${draft.data.templateId}`);
      await visible(page.getByText(`模板：待发布模板${screen}`));

      // 保存草稿 and 发布 never lie over the template's status tags.
      const save = page.getByRole('button', { name: '保存草稿' });
      const badge = page.locator('.hf-ta-template-card .ant-card-head .ant-tag').first();
      await visible(badge);
      const [saveBox, badgeBox] = [await save.boundingBox(), await badge.boundingBox()];
      const overlaps =
        saveBox !== null &&
        badgeBox !== null &&
        saveBox.x < badgeBox.x + badgeBox.width &&
        badgeBox.x < saveBox.x + saveBox.width &&
        saveBox.y < badgeBox.y + badgeBox.height &&
        badgeBox.y < saveBox.y + saveBox.height;
      expect(overlaps).toBe(false);

      await page.getByRole('button', { name: '发布', exact: true }).click();
      const outcome = page.locator('.hf-ta-outcome');
      await visible(outcome.filter({ hasText: '发布成功，但用户还看不到' }));
      await visible(outcome.filter({ hasText: `所属任务「未发布任务${screen}」还未发布` }));
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await screenshot(page, `found-publish-${screen}`);

      await outcome.getByRole('button', { name: '发布任务' }).click();
      await visible(outcome.filter({ hasText: '用户现在可以看到这个模板' }));
      type Node = { id: string; published: boolean; children?: Node[] };
      const tree = await api<Node[]>(server, 'GET', '/api/task/tree', { token });
      const find = (nodes: Node[]): Node | undefined =>
        nodes.map((node) => (node.id === task.data.id ? node : find(node.children ?? []))).find(Boolean);
      expect(find(tree.data)?.published).toBe(true);
      await context.close();
    });
  }
});
