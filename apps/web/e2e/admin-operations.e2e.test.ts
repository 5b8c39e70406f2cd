import type { AdminUserItem, Page as PageOf } from '@huafang/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  ADMIN,
  adminToken,
  api,
  loggedInOnDraw,
  newPage,
  type RegisteredUser,
  registerUserViaApi,
  screenshot,
  setupJourney,
} from './harness';
import {
  confirmWith,
  dialog,
  hidden,
  logInFromHome,
  logInWhenAsked,
  loginDialog,
  popconfirm,
  toast,
  toasts,
  visible,
} from './ui';

// A server of its own: it adds a backend and a recommended plan that every user of a server is offered.
const journey = setupJourney({ ownServer: true });

const BACKEND = 'E2E 离线后端';
const PLAN = {
  name: 'E2E 专业版',
  price: '99',
  priceShown: '¥99.00',
  credits: '3000',
  validityDays: '90',
  feature: '专属客服',
};

/** Logs a user without an invite in from the home page: they decline the invite step and stay on the home page. */
async function logIn(page: Page, user: RegisteredUser): Promise<void> {
  await logInFromHome(page, journey.server.baseUrl, user.account, user.password);
  const invite = dialog(page, '填写邀请码');
  await visible(invite);
  await invite.getByRole('button', { name: '暂不填写' }).click();
  // Closing the invite step stays on the page it was opened from.
  await hidden(invite);
  // One toast shows at a time (spec §8): later ones must not be dropped behind 登录成功.
  await hidden(toasts(page));
}

async function openSection(page: Page, label: string): Promise<void> {
  await page.locator('.hf-side-menu').getByText(label, { exact: true }).click();
  await visible(page.getByRole('heading', { name: label }));
}

const tableRow = (page: Page, text: string) => page.locator('.ant-table-row').filter({ hasText: text });

async function creditsOf(user: RegisteredUser): Promise<number> {
  const answer = await api<PageOf<AdminUserItem>>(journey.server, 'GET', `/api/admin/users?keyword=${user.account}`, {
    token: await adminToken(journey.server),
  });
  const found = answer.data.list.find((item) => item.account === user.account);
  if (!found) throw new Error(`${user.account} is not in 用户管理`);
  return found.credits;
}

/** 用户管理 narrowed to one user by a search. */
async function findUser(page: Page, user: RegisteredUser): Promise<void> {
  const search = page.getByRole('searchbox', { name: '搜索用户' });
  await search.fill(user.account);
  await search.press('Enter');
  // The previous page stays on screen while the search loads, so wait for the list to narrow.
  await expect.poll(() => page.locator('.ant-table-row').count()).toBe(1);
  await visible(tableRow(page, user.account));
}

async function grantCredits(page: Page, user: RegisteredUser, before: number): Promise<void> {
  await openSection(page, '用户管理');
  await findUser(page, user);
  await tableRow(page, user.account).getByRole('button', { name: '调整算力' }).click();
  const grant = dialog(page, '调整算力');
  await visible(grant);
  await grant.getByLabel('调整点数').fill('50');
  await grant.getByLabel('备注（选填）').fill('旅程测试');
  await grant.getByLabel('备注（选填）').press('Enter');
  await visible(toast(page, `设置成功，${user.nickname} 当前剩余 ${before + 50} 点`));
  await hidden(grant);
  await visible(tableRow(page, user.account).getByText(`${before + 50} 点`));
  await screenshot(page, 'admin-users');
}

async function addCheckAndDeleteBackend(page: Page): Promise<void> {
  await openSection(page, '推理后端');
  const builtin = tableRow(page, '内置演示引擎');
  await visible(builtin.getByText('内置', { exact: true }));
  await visible(builtin.getByText('正常', { exact: true }));

  await page.getByRole('button', { name: '添加后端' }).click();
  const add = dialog(page, '添加后端');
  await visible(add);
  await visible(add.getByLabel('用户名（选填）'));
  await add.getByLabel('名称').fill(BACKEND);
  await add.getByLabel('地址').fill('http://127.0.0.1:9');
  await add.getByLabel('提供的模型').fill('sd_xl_base_1.0.safetensors');
  await add.getByLabel('提供的模型').press('Enter');
  await add.getByRole('button', { name: '添加', exact: true }).click();
  await hidden(add);

  const row = tableRow(page, BACKEND);
  await visible(row.getByText('sd_xl_base_1.0.safetensors'));
  await hidden(toasts(page));
  await row.getByRole('button', { name: '检测' }).click();
  await visible(toast(page, `「${BACKEND}」连接异常`));
  await visible(row.getByText('异常', { exact: true }));
  await screenshot(page, 'admin-backends');

  await row.getByRole('button', { name: '删除' }).click();
  await confirmWith(popconfirm(page, `删除后端「${BACKEND}」？`), '删除');
  await hidden(row);
  expect(await tableRow(page, '内置演示引擎').count()).toBe(1);
}

async function createPlan(page: Page): Promise<void> {
  await hidden(toasts(page));
  await openSection(page, '套餐配置');
  await visible(tableRow(page, '创作版'));
  await page.getByRole('button', { name: '新建套餐' }).click();
  const create = dialog(page, '新建套餐');
  await visible(create);
  await create.getByRole('button', { name: '创建' }).click();
  // Validation speaks Chinese before anything is sent.
  await visible(create.getByText('请填写套餐名称'));
  await create.getByLabel('套餐名称').fill(PLAN.name);
  await create.getByLabel('价格（元）').fill(PLAN.price);
  await create.getByLabel('算力点数').fill(PLAN.credits);
  await create.getByLabel('有效期（天）').fill(PLAN.validityDays);
  await create.getByLabel('权益').fill(PLAN.feature);
  await create.getByLabel('权益').press('Enter');
  await create.getByRole('switch', { name: '推荐' }).click();
  await create.getByRole('button', { name: '创建' }).click();
  await hidden(create);
  await visible(toast(page, `套餐「${PLAN.name}」已保存`));
  const row = tableRow(page, PLAN.name);
  await visible(row.getByText(PLAN.feature));
  await visible(row.getByText(`${PLAN.validityDays} 天`));
  await visible(row.getByText('推荐'));
  await screenshot(page, 'admin-combos');
}

/** 数据看板: totals and the three day charts, the built-in engine among the backends. */
async function openDashboard(page: Page): Promise<void> {
  await openSection(page, '数据看板');
  await visible(page.locator('.ant-statistic', { hasText: '用户总数' }));
  for (const title of ['每日生成次数', '每日出图张数', '每日活跃用户']) {
    await visible(page.getByRole('figure', { name: title }));
  }
  expect(await page.getByRole('figure', { name: '每日生成次数' }).locator('.hf-day-chart-column').count()).toBe(14);
  await page.getByText('近 7 天').click();
  await expect
    .poll(() => page.getByRole('figure', { name: '每日生成次数' }).locator('.hf-day-chart-column').count())
    .toBe(7);
  await visible(tableRow(page, '内置演示引擎').getByText('正常'));
  await screenshot(page, 'admin-dashboard');
}

describe('管理后台: users, backends and plans, then the user sees the store', () => {
  it('grants credits, checks a backend, creates a plan, and the user finds it in 套餐商店', async () => {
    const { server, browser } = journey;
    const user = await registerUserViaApi(server);
    const before = await creditsOf(user);

    const admin = await loggedInOnDraw(journey, ADMIN);
    await admin.page.goto(`${server.baseUrl}/admin/users`);
    await grantCredits(admin.page, user, before);
    await addCheckAndDeleteBackend(admin.page);
    await createPlan(admin.page);
    await openDashboard(admin.page);
    await admin.context.close();

    const { context, page } = await newPage(browser);
    await logIn(page, user);
    await page.locator('.hf-credits', { hasText: `剩余 ${before + 50} 点` }).click();
    const store = dialog(page, '套餐商店');
    await visible(store);
    const card = store.getByRole('article', { name: PLAN.name });
    await visible(card.getByText(PLAN.priceShown));
    await visible(card.getByText(PLAN.feature));
    await visible(card.getByText(`有效期 ${PLAN.validityDays} 天`));
    await visible(store.locator('.ant-ribbon', { hasText: '推荐' }));
    await visible(store.getByText(`当前剩余 ${before + 50} 点算力`));
    await screenshot(page, 'combo-store');

    // The store's way to a plan is 帮助与反馈.
    await store.getByRole('button', { name: '帮助与反馈' }).click();
    await hidden(store);
    const help = dialog(page, '帮助与反馈');
    await visible(help);
    await help.getByRole('button', { name: '关闭', exact: true }).click();
    await hidden(help);

    // The user menu opens the same store.
    await page.getByRole('button', { name: '用户菜单' }).click();
    await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByText('套餐商店').click();
    await visible(dialog(page, '套餐商店').getByRole('article', { name: PLAN.name }));
    await context.close();
  });
});

describe('管理后台: 停用与启用账号', () => {
  it('stops a signed-in user from a phone: their next page asks them to log in, and only 启用 lets them back', async () => {
    const { server, browser } = journey;
    const user = await registerUserViaApi(server);
    const visitor = await newPage(browser);
    await logIn(visitor.page, user);

    const admin = await loggedInOnDraw(journey, ADMIN, 'phone');
    await admin.page.goto(`${server.baseUrl}/admin/users`);
    await visible(admin.page.getByRole('heading', { name: '用户管理' }));
    await findUser(admin.page, user);
    const row = tableRow(admin.page, user.account);
    await visible(row.getByText('正常', { exact: true }));
    await row.getByRole('button', { name: '停用' }).click();
    await confirmWith(popconfirm(admin.page, `停用「${user.nickname}」的账号？`), '停用');
    await visible(toast(admin.page, '设置成功'));
    await visible(row.getByText('已停用', { exact: true }));
    await visible(row.getByRole('button', { name: '启用' }));
    await screenshot(admin.page, 'admin-users-disabled-phone');

    // The stopped user's stored session no longer works: the next page lands on the login dialog, which says why.
    await visitor.page.goto(`${server.baseUrl}/myGallery`);
    await visible(loginDialog(visitor.page).locator('.hf-login-notice', { hasText: '账号已被禁用，请联系客服' }));
    await logInWhenAsked(visitor.page, user.account, user.password);
    await visible(loginDialog(visitor.page).getByRole('alert').filter({ hasText: '账号已被禁用，请联系客服' }));

    await row.getByRole('button', { name: '启用' }).click();
    await visible(row.getByText('正常', { exact: true }));
    // Back in: the invite step they closed before is not asked again.
    await logInFromHome(visitor.page, server.baseUrl, user.account, user.password);
    await visitor.page.waitForURL('**/draw');
    expect(await dialog(visitor.page, '填写邀请码').count()).toBe(0);
    await admin.context.close();
    await visitor.context.close();
  });
});
