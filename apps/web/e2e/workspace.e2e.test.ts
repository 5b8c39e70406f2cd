import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pickTemplate, setNumber } from './draw-ui';
import { invitedUserOnDraw, type ScreenName, screenshot, setupJourney } from './harness';
import { dialog, hidden, press, sidewaysOverflow, visible } from './ui';

const journey = setupJourney();

/** Every screen of these journeys, dialogs and the result sheet included: nothing scrolls sideways. */
async function look(page: Page, name: string): Promise<void> {
  expect(await sidewaysOverflow(page), name).toBeLessThanOrEqual(0);
  await screenshot(page, name);
}

/**
 * The element lies wholly inside the window and is what the user sees there: its middle and the middle of its
 * bottom edge are not under anything else (the sticky generate bar, a sheet, the header).
 */
function seen(locator: Locator): Promise<boolean> {
  return locator
    .first()
    .evaluate((element) => {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) return false;
      if (box.left < 0 || box.top < 0 || box.right > window.innerWidth || box.bottom > window.innerHeight) return false;
      const x = box.left + box.width / 2;
      return [box.top + box.height / 2, box.bottom - 2].every((y) => {
        const hit = document.elementFromPoint(x, y);
        return hit !== null && (hit === element || element.contains(hit));
      });
    })
    .catch(() => false);
}

/** Waits until the element is seen, without scrolling to it: the page itself must bring and keep it there. */
async function staysInView(locator: Locator, what: string): Promise<void> {
  await visible(locator, 30_000);
  await expect.poll(() => seen(locator), { timeout: 30_000, message: `${what} in view` }).toBe(true);
}

/** The step's parameters: the aside on wide screens, the 参数设置 section of the stacked flow on phones. */
async function parameters(page: Page, screen: ScreenName): Promise<Locator> {
  if (screen === 'desktop') return page.locator('.hf-draw-aside');
  const section = page.getByRole('region', { name: '参数设置' });
  const width = section.getByRole('spinbutton', { name: '宽度', exact: true });
  if (!(await width.isVisible())) await press(screen, section.getByRole('button', { name: /参数设置/ }));
  await visible(width);
  return section;
}

async function setParameters(scope: Locator, values: Record<string, number>): Promise<void> {
  for (const [label, value] of Object.entries(values)) await setNumber(scope, label, value);
}

/** Where the result canvas is: the right column on a desktop, the full-height sheet on a phone. */
function canvas(page: Page, screen: ScreenName): Locator {
  return screen === 'desktop' ? page.getByRole('complementary', { name: '结果画布' }) : dialog(page, '生成结果');
}

/** A finger swipe from right to left across the element (touch events, as a phone sends them). */
async function swipeLeft(page: Page, target: Locator): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('nothing to swipe');
  const y = box.y + box.height / 2;
  const cdp = await page.context().newCDPSession(page);
  const from = box.x + box.width * 0.85;
  const to = box.x + box.width * 0.1;
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from, y }] });
  for (let step = 1; step <= 8; step++) {
    const x = from + ((to - from) * step) / 8;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

describe.each<ScreenName>(['phone', 'desktop'])('the workspace on the %s', (screen) => {
  it('keeps the picture in view from 生成 to the finished image, with its actions, and clears on a switch', async () => {
    const { context, page } = await invitedUserOnDraw(journey, screen);
    await pickTemplate(page, '国风插画', '国潮插画');
    // The step tabs name each step once.
    await visible(page.getByRole('tab', { name: '步骤 1 生成', exact: true }));
    await visible(canvas(page, screen).or(page.locator('.hf-generate-bar')));
    if (screen === 'desktop') {
      await visible(canvas(page, screen).getByText('调整提示词和参数后点「生成」'));
    }

    const form = await parameters(page, screen);
    // A long enough run to watch: the progress, the one ETA and the live preview.
    await setParameters(form, { 宽度: 512, 高度: 512, 采样步数: 20, 生成数量: 2 });
    const width = form.getByRole('spinbutton', { name: '宽度', exact: true });
    // Number fields bring up the number pad on phones.
    expect(await width.getAttribute('inputmode')).toBe('numeric');
    const bar = page.locator('.hf-generate-bar');
    await visible(bar.getByText(/预计消耗 \d+ 点/));
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const scrolledTo = await page.evaluate(() => window.scrollY);
    await look(page, `workspace-${screen}-ready`);

    await press(screen, bar.getByRole('button', { name: /^(thunderbolt )?生成$/ }));
    const view = canvas(page, screen);
    await visible(view);
    const progress = view.getByRole('region', { name: '生成进度' });
    await staysInView(progress.locator('.ant-progress'), 'the progress bar');
    await visible(progress.locator('.ant-tag', { hasText: '生成中' }), 30_000);
    const preview = progress.getByRole('img', { name: '实时预览' });
    await staysInView(preview, 'the live preview');
    await staysInView(progress.getByRole('button', { name: /中断/ }), '中断');
    // One wait, on the canvas; the bar does not show a second estimate that would disagree.
    await visible(progress.getByText(/预计还需约 \d+ 秒/));
    expect(
      await page
        .getByText(/约 \d+ 秒/)
        .filter({ visible: true })
        .count(),
    ).toBe(1);
    await visible(bar.getByText('正在生成，进度见生成结果'));
    await look(page, `workspace-${screen}-running`);

    // On a desktop the form scrolls on its own; the canvas stays where it is.
    if (screen === 'desktop') {
      await page.evaluate(() => window.scrollTo(0, 0));
      await staysInView(preview, 'the live preview after scrolling the form');
    }

    await visible(progress.locator('.ant-tag', { hasText: '已完成' }), 60_000);
    const results = view.getByRole('region', { name: '本次结果' });
    const cards = results.locator('.hf-result-card');
    await expect.poll(() => cards.count()).toBe(2);
    const first = cards.first();
    await staysInView(first.getByRole('img', { name: '生成结果 1' }), 'the first result');
    for (const action of [/下一步：高清放大/, /保存/, /再次生成/, /做同款/]) {
      await staysInView(first.getByRole(action.source === '保存' ? 'link' : 'button', { name: action }), `${action}`);
    }
    await look(page, `workspace-${screen}-results`);

    if (screen === 'phone') {
      // Swiping shows the second result, then 返回表单 leaves the form as it was.
      await visible(view.getByText('1 / 2'));
      await swipeLeft(page, first.getByRole('img', { name: '生成结果 1' }));
      await visible(view.getByText('2 / 2'));
      await staysInView(cards.nth(1).getByRole('img', { name: '生成结果 2' }), 'the second result');
      await look(page, 'workspace-phone-swiped');
      await press(screen, view.getByRole('button', { name: /返回表单/ }));
      await hidden(view);
      expect(await page.evaluate(() => window.scrollY)).toBe(scrolledTo);
      expect(await width.inputValue()).toBe('512');
      await look(page, 'workspace-phone-back-to-form');
      await press(screen, bar.getByRole('button', { name: /查看结果/ }));
      await visible(view);
    } else {
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
    }

    // The viewer's toolbar is never under the generate bar.
    await press(screen, first.getByRole('button', { name: '查看第 1 张大图' }));
    const toolbar = page.locator('.ant-image-preview-actions').filter({ visible: true });
    await staysInView(toolbar, 'the viewer toolbar');
    await look(page, `workspace-${screen}-viewer`);
    await page.keyboard.press('Escape');
    await hidden(page.locator('.ant-image-preview-img'));

    // 做同款 puts the image's seed (and its prompts and parameters) into the form.
    const seed = ((await first.locator('.hf-result-seed').textContent()) ?? '').match(/种子 (\d+)/)?.[1];
    expect(seed).toBeTruthy();
    await press(screen, first.getByRole('button', { name: /做同款/ }));
    if (screen === 'phone') await hidden(view);
    const seedBox = form.getByRole('spinbutton', { name: '随机种子', exact: true });
    await expect.poll(() => seedBox.inputValue()).toBe(seed);
    await look(page, `workspace-${screen}-make-same`);

    // 再次生成 runs the same request again; the earlier run moves to 更早的结果.
    await setParameters(form, { 宽度: 256, 高度: 256, 采样步数: 8, 生成数量: 1 });
    if (screen === 'phone') {
      await press(screen, bar.getByRole('button', { name: /查看结果/ }));
      await visible(view);
    }
    await press(screen, first.getByRole('button', { name: /再次生成/ }));
    await visible(progress.locator('.ant-tag', { hasText: '已完成' }), 60_000);
    await expect.poll(() => cards.count()).toBe(2);
    await expect
      .poll(() => view.getByRole('region', { name: '更早的结果' }).locator('.hf-result-card').count())
      .toBe(2);
    await staysInView(cards.first().getByRole('img', { name: '生成结果 1' }), 'the result of 再次生成');

    // A long run left going when the template changes: it is not shown as the new template's result.
    if (screen === 'phone') {
      await press(screen, view.getByRole('button', { name: /返回表单/ }));
      await hidden(view);
    }
    await setParameters(form, { 宽度: 768, 高度: 768, 采样步数: 50, 生成数量: 4 });
    await press(screen, bar.getByRole('button', { name: /^(thunderbolt )?生成$/ }));
    await visible(progress.locator('.ant-tag', { hasText: '生成中' }), 30_000);
    if (screen === 'phone') {
      await press(screen, view.getByRole('button', { name: /返回表单/ }));
      await hidden(view);
    }
    await pickTemplate(page, '国风插画', '水墨山水');
    if (screen === 'phone') {
      await press(screen, bar.getByRole('button', { name: /查看结果/ }));
      await visible(view);
    }
    await visible(view.getByText('上一个生成'));
    await visible(results.getByText('调整提示词和参数后点「生成」'));
    expect(await results.locator('.hf-result-card').count()).toBe(0);
    expect(await view.getByRole('region', { name: '更早的结果' }).count()).toBe(0);
    await look(page, `workspace-${screen}-switched`);
    await press(screen, progress.getByRole('button', { name: /中断/ }));
    await hidden(progress, 30_000);
    expect(await results.locator('.hf-result-card').count()).toBe(0);
    await context.close();
  }, 360_000);
});
