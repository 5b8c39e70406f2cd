import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pickTemplate, setNumber } from './draw-ui';
import {
  adminToken,
  api,
  invitedUserOnDraw,
  loggedInOnDraw,
  registerInvitedUser,
  screenshot,
  setupJourney,
} from './harness';
import { dialog, hidden, visible } from './ui';

const journey = setupJourney();

async function setParameters(scope: Locator, values: Record<string, number>): Promise<void> {
  for (const [label, value] of Object.entries(values)) await setNumber(scope, label, value);
}

function progressPanel(page: Page): Locator {
  return page.getByRole('region', { name: '生成进度' });
}

function currentResults(page: Page): Locator {
  return page.getByRole('region', { name: '本次结果' });
}

function generateButton(page: Page): Locator {
  return page.locator('.hf-generate-button');
}

/** The status tag of the progress panel reads `label` (排队中, 生成中, 已完成, 已中断…). */
async function statusIs(page: Page, label: string, timeout = 30_000): Promise<void> {
  await visible(progressPanel(page).locator('.ant-tag', { hasText: label }), timeout);
}

describe('generation', () => {
  it('generates with a template, runs 下一步 on a result, resumes after a reload and interrupts', async () => {
    const { server } = journey;
    const { context, page } = await invitedUserOnDraw(journey);
    const aside = page.locator('.hf-draw-aside');

    await pickTemplate(page, '国风插画', '国潮插画');
    const positive = page.getByRole('region', { name: '正向提示词' });
    await positive.getByRole('button', { name: '词库' }).click();
    const drawer = page.locator('.ant-drawer').filter({ hasText: '正向词库' });
    await drawer.getByText('杰作', { exact: true }).click();
    await visible(positive.getByText('杰作'));
    await page.keyboard.press('Escape');
    await hidden(drawer.locator('.ant-drawer-title'));

    await setParameters(aside, { 宽度: 256, 高度: 256, 采样步数: 10, 生成数量: 2 });
    // 256×256 costs 1 point an image; a new user has 100.
    await visible(page.locator('.hf-generate-bar').getByText('预计消耗 2 点'));
    await visible(page.locator('.hf-generate-bar').getByText('剩余 100 点'));
    await visible(page.locator('.hf-generate-bar').getByText(/排队第 \d+ 位/));

    await generateButton(page).click();
    await visible(progressPanel(page));
    await statusIs(page, '已完成');
    await visible(progressPanel(page).locator('.ant-progress-status-success'));
    const cards = currentResults(page).locator('.hf-result-card');
    await visible(cards.nth(1));
    expect(await cards.count()).toBe(2);
    await visible(cards.first().getByText('256×256'));
    await visible(page.locator('.hf-credits', { hasText: '剩余 98 点' }));
    await visible(page.getByText('未配置 GPU 推理后端时，图片由内置演示引擎（非 AI 模型）绘制'));
    expect(await cards.first().getByRole('link', { name: /保存/ }).getAttribute('download')).toMatch(/\.png$/);
    await cards.first().getByRole('button', { name: '查看第 1 张大图' }).click();
    await visible(page.locator('.ant-image-preview img'));
    await page.keyboard.press('Escape');
    await hidden(page.locator('.ant-image-preview-img'));
    await screenshot(page, 'draw-results');

    // 下一步 opens step 2 (高清放大) and runs it on the chosen image: 2× the size.
    await cards
      .first()
      .getByRole('button', { name: /下一步：高清放大/ })
      .click();
    await visible(aside.getByRole('tab', { name: '步骤 2 高清放大', selected: true }));
    await visible(currentResults(page).getByText('512×512'), 30_000);
    await statusIs(page, '已完成');
    await visible(progressPanel(page).getByText('第 2 次运行'));
    expect(await page.getByRole('region', { name: '更早的结果' }).locator('.hf-result-card').count()).toBe(2);
    // Step 2 draws on a chosen result, so the 生成 button waits for 下一步 instead.
    await visible(page.getByText('这一步使用上一步的结果图'));
    expect(await generateButton(page).isDisabled()).toBe(true);
    await screenshot(page, 'draw-next-step');

    // A long run: progress, queue place or ETA, the live preview; it survives a reload; then 中断.
    await aside.getByRole('tab', { name: '步骤 1 生成' }).click();
    await setParameters(aside, { 宽度: 768, 高度: 768, 采样步数: 50, 生成数量: 4 });
    await visible(page.locator('.hf-generate-bar').getByText('预计消耗 4 点'));
    await page.keyboard.press('Control+Enter');
    await statusIs(page, '生成中');
    await visible(progressPanel(page).getByText(/预计还需约 \d+ 秒/));
    await visible(progressPanel(page).getByRole('img', { name: '实时预览' }));
    await screenshot(page, 'draw-generating');

    await page.reload();
    await statusIs(page, '生成中');
    await visible(progressPanel(page).getByRole('img', { name: '实时预览' }));
    await progressPanel(page).getByRole('button', { name: /中断/ }).click();
    await statusIs(page, '已中断');
    await visible(progressPanel(page).locator('.ant-alert', { hasText: '已中断' }));
    // The demo engine paints a batch together, so an early stop usually keeps no image; either way is shown.
    await visible(
      currentResults(page).getByText('这次运行没有完成的图片').or(currentResults(page).locator('.hf-result-card')),
    );
    expect(await progressPanel(page).getByRole('button', { name: /中断/ }).count()).toBe(0);
    expect(await generateButton(page).isEnabled()).toBe(true);
    // Images finished before the stop are kept and paid for; the rest of the 4 points came back.
    const kept = await currentResults(page).locator('.hf-result-card').count();
    await screenshot(page, 'draw-interrupted');

    // 自由创作: the home page hands its prompt over; the page generates from the typed words.
    await page.goto(`${server.baseUrl}/`);
    await page.getByPlaceholder('描述你想要的画面…').fill('水墨画，远山，云雾');
    await page.getByPlaceholder('描述你想要的画面…').press('Enter');
    await page.waitForURL('**/chuangyi');
    await expect.poll(() => page.getByRole('textbox', { name: '画面描述' }).inputValue()).toBe('水墨画，远山，云雾');
    // The model select starts on the first model rather than empty.
    await visible(page.getByRole('region', { name: '参数设置' }).getByText('写实人像'));
    const params = page.getByRole('region', { name: '参数设置' });
    await setParameters(params, { 宽度: 256, 高度: 256, 采样步数: 10 });
    await visible(page.locator('.hf-generate-bar').getByText('预计消耗 1 点'));
    await generateButton(page).click();
    await statusIs(page, '已完成');
    await visible(currentResults(page).locator('.hf-result-card'));
    expect(await currentResults(page).locator('.hf-result-card').count()).toBe(1);
    // Free creation has no template steps, so there is no 下一步.
    expect(
      await currentResults(page)
        .getByRole('button', { name: /下一步/ })
        .count(),
    ).toBe(0);
    await visible(page.locator('.hf-credits', { hasText: `剩余 ${96 - kept} 点` }));
    await currentResults(page).evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await page.mouse.move(0, 0);
    await screenshot(page, 'chuangyi');
    await context.close();
  });

  it('opens the quota notice with the server message when the credits are spent', async () => {
    const { server } = journey;
    const user = await registerInvitedUser(server);
    const me = await api<{ userId: string; credits: number }>(server, 'GET', '/api/user/currentUser', {
      token: user.token,
    });
    const granted = await api<{ credits: number }>(server, 'POST', '/api/admin/users/credits', {
      token: await adminToken(server),
      body: { userId: me.data.userId, amount: -me.data.credits, remark: 'e2e 算力用尽' },
    });
    expect(granted.data.credits).toBe(0);

    const { context, page } = await loggedInOnDraw(journey, user);
    await pickTemplate(page, '国风插画', '水墨山水');
    await visible(page.locator('.hf-generate-bar').getByText('剩余 0 点，算力不足'));
    await generateButton(page).click();
    const notice = dialog(page, '算力不足');
    await visible(notice);
    await visible(notice.getByText(/算力不足：本次生成需要 \d+ 点，当前剩余 0 点/));
    await visible(notice.getByRole('button', { name: /查看套餐/ }));
    await screenshot(page, 'quota-notice');

    await notice.getByRole('button', { name: /帮助与反馈/ }).click();
    await hidden(notice);
    await visible(dialog(page, '帮助与反馈'));
    expect(await progressPanel(page).count()).toBe(0);
    await context.close();
  });
});
