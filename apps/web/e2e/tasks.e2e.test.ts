import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN, loggedInOnDraw, newPage, randomSuffix, registerInvitedUser, screenshot, setupJourney } from './harness';
import { chooseOption, chooseTab, dialog, hidden, logInFromHome, pathname, toast, visible } from './ui';

// A server of its own: it relabels a word of the shared prompt library.
const journey = setupJourney({ ownServer: true });

/** A user with an invite, logged in through the header; the login lands on /draw. */
async function logInNewUser(page: Page): Promise<void> {
  const { server } = journey;
  const user = await registerInvitedUser(server);
  await logInFromHome(page, server.baseUrl, user.account, user.password);
  await page.waitForURL('**/draw');
}

function aside(page: Page): Locator {
  return page.locator('.hf-draw-aside');
}

function taskSelectDialog(page: Page): Locator {
  return dialog(page, '选择任务模板');
}

/** Picks an option of the antd select labelled `label` inside `scope`. */
describe('tasks and templates', () => {
  it('opens a task from /tasks and uses one of its templates in /draw', async () => {
    const { browser } = journey;
    const { context, page } = await newPage(browser);
    await logInNewUser(page);
    await visible(page.getByText('还没有选择模板'));

    await page.locator('.hf-nav').getByText('任务').click();
    await page.waitForURL('**/tasks');
    const menu = page.locator('.hf-side-menu');
    for (const category of ['电商设计', '人像摄影', '国风插画', '线稿与草图']) await visible(menu.getByText(category));
    // The first category is shown until another is chosen.
    await visible(page.locator('.hf-task-card', { hasText: '电商主图' }));
    await visible(page.locator('.hf-task-card', { hasText: '海报设计' }));

    await menu.getByText('人像摄影').click();
    const avatarTask = page.locator('.hf-task-card', { hasText: '头像生成' });
    await visible(avatarTask);
    expect(await avatarTask.textContent()).toContain('2 个模板');
    expect(await page.locator('.hf-task-card', { hasText: '电商主图' }).count()).toBe(0);
    await screenshot(page, 'tasks');

    await avatarTask.click();
    await page.waitForURL(/\/tasks\/[^/]+$/);
    await visible(page.getByRole('heading', { name: '头像生成' }));
    await visible(page.locator('.hf-breadcrumb').getByText('人像摄影'));
    const anime = page.locator('.hf-template-detail-card', { hasText: '二次元头像' });
    await visible(anime.getByText('2 个步骤'));
    await visible(anime.getByText('文生图'));
    await visible(anime.getByText('暂无作品'));
    await visible(page.locator('.hf-template-detail-card', { hasText: '3D 卡通头像' }));
    await screenshot(page, 'task-detail');

    // Spec §8 keeps one toast at a time, so the login's 登录成功 must be gone before the copy's can show.
    await hidden(toast(page, '登录成功'));
    await page.getByRole('button', { name: '复制到我的' }).click();
    await visible(toast(page, '已复制到我的任务：头像生成'));
    await visible(menu.getByText('我的任务'));

    await anime.getByRole('button', { name: '使用模板' }).click();
    await page.waitForURL('**/draw');
    await visible(aside(page).getByText('模板：二次元头像'));
    await visible(aside(page).getByText('头像生成'));
    await visible(aside(page).getByRole('tab', { name: '步骤 1 生成' }));
    await visible(aside(page).getByRole('tab', { name: '步骤 2 高清放大' }));
    // The first step's form and prompt groups are on screen.
    await visible(aside(page).getByText('采样步数'));
    await visible(aside(page).getByText('二次元插画'));
    await visible(page.getByRole('region', { name: '正向提示词' }).getByText('动漫风格'));
    await visible(page.getByRole('region', { name: '反向提示词' }).getByText('低质量'));
    await visible(page.locator('.hf-generate-bar').getByText(/预计消耗 \d+ 点/));
    expect(await page.locator('.hf-generate-button').isEnabled()).toBe(true);
    await screenshot(page, 'draw-template');

    await aside(page).getByRole('tab', { name: '步骤 2 高清放大' }).click();
    await visible(aside(page).getByText('重绘幅度'));
    await visible(page.getByRole('region', { name: '正向提示词' }).getByText('细节丰富'));

    // The draft survives a reload.
    await page.reload();
    await visible(aside(page).getByText('模板：二次元头像'));
    await visible(aside(page).getByText('重绘幅度'));
    await context.close();
  });

  it('switches templates in /draw through the task-selection dialog', async () => {
    const { browser } = journey;
    const { context, page } = await newPage(browser);
    await logInNewUser(page);

    await page.getByRole('button', { name: '选择模板' }).click();
    const select = taskSelectDialog(page);
    await visible(select);
    // Spec §4: the first category's tasks and their templates.
    await visible(select.getByRole('tab', { name: '电商设计', selected: true }));
    await visible(select.getByRole('region', { name: '电商主图' }).getByText('白底产品图'));
    await visible(select.getByRole('region', { name: '电商主图' }).getByText('场景化主图'));
    await visible(select.getByRole('region', { name: '海报设计' }).getByText('促销海报'));
    await select.getByRole('button', { name: '选择模板 白底产品图' }).click();
    await hidden(select);
    await visible(aside(page).getByText('模板：白底产品图'));
    await visible(aside(page).getByText('电商主图'));

    await aside(page).getByRole('button', { name: '切换' }).click();
    await visible(select);
    await select.getByRole('tab', { name: '国风插画' }).click();
    await visible(select.getByRole('region', { name: '国风插画' }).getByText('水墨山水'));
    await visible(select.getByRole('region', { name: '国潮设计' }).getByText('国潮插画'));
    await screenshot(page, 'task-select-dialog');

    await select.getByRole('button', { name: '选择模板 水墨山水' }).click();
    await hidden(select);
    await visible(aside(page).getByText('模板：水墨山水'));
    await visible(aside(page).getByRole('tab', { name: '步骤 1 生成' }));
    expect(await aside(page).getByRole('tab').count()).toBe(1);
    await visible(page.getByRole('region', { name: '正向提示词' }).getByText('水墨画'));
    await visible(aside(page).getByText('水墨国风'));

    // A ControlNet template: the module's fromConfig decides which unit fields show.
    await aside(page).getByRole('button', { name: '切换' }).click();
    await select.getByRole('tab', { name: '线稿与草图' }).click();
    await select.getByRole('button', { name: '选择模板 线稿上色' }).click();
    await hidden(select);
    const unit = aside(page).locator('.hf-config-collapse', { hasText: '线稿控制' });
    await visible(unit.getByText('预处理器'));
    await visible(unit.getByText('控制模式'));
    await visible(unit.getByText('参考图'));
    expect(await unit.getByText('低阈值').count()).toBe(0);
    await chooseOption(page, unit.getByLabel('预处理器', { exact: true }), 'Canny 边缘');
    await visible(unit.getByText('低阈值'));
    expect(await unit.getByText('控制模式').count()).toBe(0);
    await context.close();
  });

  it('shows a prompt word an admin relabelled in the 词库 of /draw', async () => {
    const { server, browser } = journey;
    const label = `细节${randomSuffix(4)}`;

    const admin = await loggedInOnDraw(journey, ADMIN);

    await admin.page.goto(`${server.baseUrl}/model`);
    await visible(admin.page.getByRole('heading', { name: '模型管理' }));
    for (const group of ['写实', '动漫', '国风']) await visible(admin.page.locator('.ant-segmented').getByText(group));
    await visible(admin.page.locator('.ant-table-row', { hasText: '写实人像' }).getByText('builtin-realistic'));
    await screenshot(admin.page, 'model');

    await admin.page.getByRole('tab', { name: '提示词库' }).click();
    await admin.page
      .locator('.hf-library-tree')
      .getByText(/^基础画质/)
      .click();
    await visible(admin.page.locator('.hf-library-heading', { hasText: '基础画质' }));
    const row = admin.page.locator('.ant-table-row', { hasText: 'extremely detailed' });
    await visible(row);
    await row.getByRole('button', { name: '编辑' }).click();
    const edit = dialog(admin.page, '编辑提示词');
    await visible(edit);
    await edit.getByLabel('中文标签').fill(label);
    await edit.getByLabel('中文标签').press('Enter');
    await visible(toast(admin.page, '设置成功'));
    await hidden(edit);
    await visible(admin.page.locator('.ant-table-row', { hasText: label }));
    await screenshot(admin.page, 'model-prompts');
    await admin.context.close();

    const { context, page } = await newPage(browser);
    await logInNewUser(page);
    await page.getByRole('button', { name: '选择模板' }).click();
    await taskSelectDialog(page).getByRole('button', { name: '选择模板 白底产品图' }).click();
    await hidden(taskSelectDialog(page));
    const positive = page.getByRole('region', { name: '正向提示词' });
    await positive.getByRole('button', { name: '词库' }).click();
    const drawer = page.locator('.ant-drawer').filter({ hasText: '正向词库' });
    await visible(drawer);
    // The word is not featured, so 常用 leaves it out and 全部 shows it.
    await visible(drawer.getByText('杰作'));
    expect(await drawer.getByText(label).count()).toBe(0);
    await chooseTab(drawer.getByRole('tab', { name: '全部' }));
    await visible(drawer.getByText(label));
    await drawer.getByText(label).click();
    await visible(positive.getByText(label));
    await screenshot(page, 'tag-picker');

    await drawer.getByPlaceholder('搜索中文或英文，如 杰作 / masterpiece').fill('extremely detailed');
    await drawer.getByPlaceholder('搜索中文或英文，如 杰作 / masterpiece').press('Enter');
    await visible(drawer.locator('.hf-word-tag.ant-tag-checkable-checked', { hasText: label }));
    expect(pathname(page)).toBe('/draw');
    await context.close();
  });
});
