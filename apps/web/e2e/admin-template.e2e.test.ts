import { CONTROLNET_FIELD_NAMES, type TaskTreeNode, type TemplateDetail } from '@huafang/contracts';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  ADMIN,
  adminToken,
  api,
  loggedInOnDraw,
  registerInvitedUser,
  type ScreenName,
  screenshot,
  setupJourney,
} from './harness';
import { chooseOption, confirmation, confirmWith, dialog, hidden, pathname, toast, toasts, visible } from './ui';

// A server of its own: it adds to and reorders the task tree every user of a server picks from.
const journey = setupJourney({ ownServer: true });

const CATEGORY = '测试分类';
const TASK = '测试任务';
const TEMPLATE = '测试模板';

function treeNode(page: Page, name: string): Locator {
  return page
    .locator('.hf-ta-node')
    .filter({ has: page.locator('.hf-ta-node-name', { hasText: new RegExp(`^${name}$`) }) });
}

/** The step tab on screen; the other tabs stay mounted but hidden. */
function activeStep(page: Page): Locator {
  return page.locator('.hf-ta-steps').getByRole('tabpanel');
}

async function nameInDialog(page: Page, title: string, label: string, name: string): Promise<void> {
  const modal = dialog(page, title);
  await visible(modal);
  await modal.getByLabel(label).fill(name);
  await modal.getByLabel(label).press('Enter');
  await modal.waitFor({ state: 'hidden' });
}

/** The seeded admin, logged in on a fresh page (see loggedInOnDraw), on 任务配置. */
async function openTaskConfig(screen: ScreenName = 'desktop'): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await loggedInOnDraw(journey, ADMIN, screen);
  await opened.page.goto(`${journey.server.baseUrl}/admin`);
  await visible(opened.page.getByRole('heading', { name: '任务配置' }));
  await visible(treeNode(opened.page, '电商设计'));
  return opened;
}

/**
 * Drags a tree node onto the upper edge (above) or the middle (into) of another, until `answer` shows: a drag that
 * the page did not take up (it can be lost while the tree is still settling) is made again, as a person would.
 */
async function dragNode(page: Page, from: string, to: string, where: 'above' | 'into', answer: string): Promise<void> {
  const row = (name: string) => page.locator('.ant-tree-treenode').filter({ has: treeNode(page, name) });
  const target = row(to);
  for (let attempt = 0; attempt < 3; attempt++) {
    const box = await target.boundingBox();
    if (!box) throw new Error(`${to} is not on screen`);
    await row(from).dragTo(target, { targetPosition: { x: box.width / 2, y: where === 'above' ? 3 : box.height / 2 } });
    try {
      await visible(toast(page, answer), 5_000);
      return;
    } catch {
      // The drop did not reach the tree: drag again.
    }
  }
  throw new Error(`dragging ${from} onto ${to} never answered ${answer}`);
}

async function publishNode(page: Page, name: string, what: '分类' | '任务'): Promise<void> {
  await treeNode(page, name).click();
  const editor = page.locator('.hf-ta-editor-pane');
  await visible(editor.getByText(`${what}：${name}`));
  await editor.getByRole('switch', { name: `发布${what}` }).click();
  await editor.getByRole('button', { name: '保存' }).click();
  await visible(treeNode(page, name).locator('.hf-ta-node-tag', { hasText: '已发布' }));
}

describe('任务配置: an admin builds and publishes a two-step template', () => {
  for (const screen of ['desktop', 'phone'] as const) {
    it(`creates 测试分类 / 测试任务 / a template, publishes it, and a user starts it from /tasks (${screen})`, async () => {
      const { server } = journey;
      // Each screen builds its own branch of the tree; the desktop's keeps the plain names.
      const on = screen === 'desktop' ? '' : '手机';
      const [category, task, template] = [`${CATEGORY}${on}`, `${TASK}${on}`, `${TEMPLATE}${on}`];
      const { context, page } = await openTaskConfig(screen);

      // 新建分类 from the toolbar, 新建任务 from the right-click menu, 新建模板 from the ⋯ menu.
      await page.getByRole('button', { name: '新建分类' }).click();
      await nameInDialog(page, '新建分类', '分类名称', category);
      await visible(treeNode(page, category).locator('.hf-ta-node-tag', { hasText: '未发布' }));

      // The search narrows the tree to the new category, whose right-click menu offers 新建任务.
      const search = page.getByRole('searchbox', { name: '搜索任务树' });
      await search.fill(category);
      await visible(page.getByText('搜索时不能拖动排序'));
      expect(await page.locator('.hf-ta-node').count()).toBe(1);
      await treeNode(page, category).click({ button: 'right' });
      await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByText('新建任务').click();
      await nameInDialog(page, '新建任务', '任务名称', task);
      await visible(treeNode(page, task));
      await search.fill('');

      await publishNode(page, category, '分类');
      await publishNode(page, task, '任务');

      await page.getByRole('button', { name: `「${task}」的操作` }).click();
      await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByText('新建模板').click();
      await nameInDialog(page, '新建模板', '模板名称', template);
      await visible(treeNode(page, template).locator('.hf-ta-node-tag', { hasText: '草稿' }));
      await visible(page.getByText(`模板：${template}`));
      const templateId = new URL(page.url()).searchParams.get('node');
      expect(templateId).toBeTruthy();

      // Step 1 (文生图): a word from the tag library, a typed word, a sampler select and a ControlNet unit.
      let step = activeStep(page);
      await visible(step.locator('.ant-select', { hasText: '文生图' }));
      const positive = step.getByRole('region', { name: '正向提示词组' });
      await positive.getByRole('button', { name: '词库' }).click();
      const library = page.getByRole('dialog', { name: '正向提示词词库' });
      await visible(library);
      await library.getByText('杰作', { exact: true }).click();
      // A click on 完成 while the drawer still slides in can be lost: pressed again until the drawer has closed.
      await confirmWith(library, '完成');
      await visible(positive.locator('.ant-tag', { hasText: '杰作' }));
      await positive.getByLabel('自定义提示词中文标签').fill('赛博朋克');
      await positive.getByLabel('自定义提示词英文').fill('cyberpunk');
      await positive.getByLabel('自定义提示词英文').press('Enter');
      await visible(positive.locator('.ant-tag', { hasText: '赛博朋克' }));

      await step.getByRole('button', { name: '添加表单项' }).click();
      const drawer = page.locator('.ant-drawer').filter({ hasText: '添加表单项' });
      await visible(drawer);
      await chooseOption(page, drawer.getByRole('combobox', { name: '表单项类型' }), '下拉选择');
      await drawer.getByRole('combobox', { name: '参数名' }).fill('sampler');
      await drawer.getByLabel('标题').fill('采样器');
      await drawer.getByText('接口来源').click();
      await chooseOption(page, drawer.getByRole('combobox', { name: '选项来源接口' }), '/api/options/samplers');
      await chooseOption(page, drawer.getByRole('combobox', { name: '默认值' }), 'Euler a');
      await drawer.getByRole('button', { name: '确定' }).click();
      await drawer.waitFor({ state: 'hidden' });
      await visible(step.locator('.hf-ta-field-row[data-name="sampler"]', { hasText: '来源：采样器' }));

      await step.getByRole('button', { name: '添加 ControlNet 单元' }).click();
      await visible(step.locator('.hf-ta-field-row[data-name="controlNets"]', { hasText: '10 个子项' }));
      const preview = step.locator('.hf-ta-preview');
      await visible(preview.getByText('ControlNet 控制'));
      await visible(preview.getByText('预处理器'));
      await visible(preview.locator('.ant-select', { hasText: 'Euler a' }));

      // Step 2 (高清放大) starts from the image picked in step 1.
      await page.getByRole('button', { name: '添加步骤' }).click();
      await visible(page.getByRole('tab', { name: '步骤 2' }));
      step = activeStep(page);
      await chooseOption(page, step.getByRole('combobox', { name: '生成方式' }), '高清放大');
      expect(await step.getByRole('switch', { name: '使用上一步的图片' }).getAttribute('aria-checked')).toBe('true');

      // 前移 / 后移 reorder the step tabs; the order of the tabs is the order of the steps.
      const tabNames = () => page.locator('.hf-ta-steps .ant-tabs-tab').allTextContents();
      const firstTab = (await tabNames())[0]!;
      await page.getByRole('button', { name: '前移' }).click();
      await expect.poll(async () => (await tabNames())[1]).toBe(firstTab);
      await page.getByRole('button', { name: '后移' }).click();
      await expect.poll(async () => (await tabNames())[0]).toBe(firstTab);
      step = activeStep(page);

      // Publishing checks every step: step 2 has no field yet, and the editor says so.
      await page.getByRole('button', { name: '发布' }).click();
      const outcome = page.locator('.hf-ta-outcome');
      await visible(outcome.filter({ hasText: '发布未通过校验' }));
      await visible(outcome.filter({ hasText: '步骤 2「步骤 2」：至少需要一个表单项' }));

      await step.getByRole('button', { name: '添加常用参数' }).click();
      await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByText('随机种子（seed）').click();
      await visible(step.locator('.hf-ta-field-row[data-name="seed"]'));
      await page.getByRole('button', { name: '发布' }).click();
      await visible(outcome.filter({ hasText: '发布成功' }));
      await visible(treeNode(page, template).locator('.hf-ta-node-tag', { hasText: '已发布' }));
      await hidden(toasts(page));
      await screenshot(page, screen === 'desktop' ? 'admin-task-config' : 'admin-task-config-phone');

      await page.getByRole('tab', { name: '步骤 1' }).click();
      const design = activeStep(page).locator('.hf-ta-design');
      await visible(design.locator('.hf-ta-preview').getByText('ControlNet 控制'));
      // The designer and its live preview sit below the prompts; the picture shows them with the saved step.
      await design.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().top - 140));
      await screenshot(page, screen === 'desktop' ? 'admin-template-editor' : 'admin-template-editor-phone');

      // What was saved, read back as a second client would.
      const detail = await api<TemplateDetail>(server, 'GET', `/api/task/template/detail/${templateId}`, {
        token: await adminToken(server),
      });
      expect(detail.data.status).toBe('published');
      const [first, second] = detail.data.taskStepList;
      expect(first?.generateMode).toBe('txt2img');
      expect(first?.promptGroup.map((item) => [item.groupName, item.custom])).toEqual([
        ['杰作', '0'],
        ['赛博朋克', '1'],
      ]);
      expect(first?.formConfig.find((item) => item.name === 'sampler')).toMatchObject({
        type: 'select',
        url: '/api/options/samplers',
        value: 'Euler a',
      });
      const unit = first?.formConfig.find((item) => item.name === 'controlNets');
      expect(unit?.children?.map((item) => item.name)).toEqual([...CONTROLNET_FIELD_NAMES]);
      expect(second).toMatchObject({ generateMode: 'upscale', useParentImage: true });

      // A draft saved after publishing leaves the published version with users; the tree shows both states.
      await page.getByLabel('模板描述').fill('两步：生成后高清放大');
      await visible(page.getByText('有未保存的修改'));
      // Clicking another node with unsaved edits asks first; 继续编辑 keeps them.
      await treeNode(page, task).click();
      const leave = confirmation(page, '离开后，这个模板未保存的修改会丢失');
      await visible(leave);
      await leave.getByRole('button', { name: '继续编辑' }).click();
      await hidden(leave);
      await expect.poll(() => page.getByLabel('模板描述').inputValue()).toBe('两步：生成后高清放大');
      await page.getByRole('button', { name: '保存草稿' }).click();
      await visible(outcome.filter({ hasText: '草稿已保存' }));
      await visible(treeNode(page, template).locator('.hf-ta-node-tag', { hasText: '草稿' }));
      await visible(treeNode(page, template).locator('.hf-ta-node-tag', { hasText: '已发布' }));
      await context.close();

      // A plain user finds it on /tasks and starts it.
      const user = await registerInvitedUser(server);
      const published = await api<TaskTreeNode[]>(server, 'GET', '/api/task/tree', { token: user.token });
      const listed = published.data.find((node) => node.name === category);
      expect(listed?.children?.[0]?.children?.map((node) => node.name)).toEqual([template]);

      const visit = await loggedInOnDraw(journey, user);
      await visit.page.goto(`${server.baseUrl}/tasks`);
      await visit.page.locator('.hf-side-menu').getByText(category).click();
      await visit.page.locator('.hf-task-card', { hasText: task }).click();
      const card = visit.page.locator('.hf-template-detail-card', { hasText: template });
      await visible(card);
      expect(await card.textContent()).not.toContain('两步：生成后高清放大');
      await card.getByRole('button', { name: '使用模板' }).click();
      await visit.page.waitForURL('**/draw');
      expect(pathname(visit.page)).toBe('/draw');
      await visit.context.close();
    });
  }

  it('reorders by dragging, and a drop the server refuses keeps the tree as it was', async () => {
    const { server } = journey;
    const { context, page } = await openTaskConfig();
    const names = () => page.locator('.hf-ta-node-name').allTextContents();

    const before = await names();
    await dragNode(page, '人像摄影', '促销海报', 'into', '分类只能位于最顶层');
    expect(await names()).toEqual(before);
    await hidden(toast(page, '分类只能位于最顶层'));

    await dragNode(page, '节日海报', '促销海报', 'above', '移动成功');
    // The toast answers the move; the tree shows the new order once it has loaded again.
    await expect
      .poll(async () => {
        const order = await names();
        return order.indexOf('促销海报') - order.indexOf('节日海报');
      })
      .toBe(1);
    const tree = await api<TaskTreeNode[]>(server, 'GET', '/api/task/tree/all', { token: await adminToken(server) });
    const posters = tree.data.flatMap((category) => category.children ?? []).find((task) => task.name === '海报设计');
    expect(posters?.children?.map((template) => template.name)).toEqual(['节日海报', '促销海报']);
    await context.close();
  });
});
