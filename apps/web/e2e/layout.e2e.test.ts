import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN_SECTIONS, adminSectionUrl } from '../src/features/admin/admin-sections';
import { pickTemplate } from './draw-ui';
import { ADMIN, loggedInOnDraw, screenshot, setupJourney } from './harness';
import { chooseUserMenuItem, dialog, hidden, sidewaysOverflow, visible } from './ui';

const journey = setupJourney();

interface RouteCheck {
  /** The screenshot's name: phone-<name>.png. */
  name: string;
  path: string;
  /** Shown once the page has drawn its content. */
  ready: (page: Page) => Locator;
  /** Routes outside the app frame (agreements, the home hero keeps its own header). */
  framed?: boolean;
}

const heading = (name: string) => (page: Page) => page.getByRole('heading', { name, exact: true }).first();

const ROUTES: RouteCheck[] = [
  { name: 'home', path: '/', ready: heading('让每一个想象，都跃然纸上'), framed: true },
  { name: 'omnibus', path: '/omnibus', ready: heading('灵感广场'), framed: true },
  { name: 'tasks', path: '/tasks', ready: (page) => page.locator('.hf-task-card').first(), framed: true },
  { name: 'draw', path: '/draw', ready: (page) => page.getByText('还没有选择模板'), framed: true },
  { name: 'chuangyi', path: '/chuangyi', ready: (page) => page.getByLabel('画面描述'), framed: true },
  { name: 'myGallery', path: '/myGallery', ready: heading('我的作品'), framed: true },
  ...ADMIN_SECTIONS.map((section) => ({
    name: section.path ? `admin-${section.path}` : 'admin',
    path: adminSectionUrl(section),
    ready: heading(section.label),
    framed: true,
  })),
  { name: 'model', path: '/model', ready: heading('模型管理'), framed: true },
  { name: 'credits', path: '/account/credits', ready: heading('算力明细'), framed: true },
  { name: 'questionnaire', path: '/questionnaire', ready: (page) => page.locator('.hf-doc h2') },
  { name: 'privacyAgreement', path: '/privacyAgreement', ready: (page) => page.locator('.hf-doc h2') },
  { name: 'servicePolicy', path: '/servicePolicy', ready: (page) => page.locator('.hf-doc h2') },
  { name: 'not-found', path: '/no-such-page', ready: (page) => page.getByText('404') },
];

/**
 * Texts squeezed to about one character a line: an element holding two or more characters of its own text
 * drawn narrower than two characters of its font and taller than two lines.
 */
function squeezedTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const squeezed: string[] = [];
    for (const element of document.body.querySelectorAll<HTMLElement>('*')) {
      const own = [...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent?.trim() ?? '')
        .join('');
      if ([...own].length < 2) continue;
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      if (style.visibility === 'hidden' || box.width === 0 || box.height === 0) continue;
      const font = Number.parseFloat(style.fontSize);
      // line-height "normal" has no number: about 1.3 times the font.
      const line = Number.parseFloat(style.lineHeight) || 1.3 * font;
      if (box.width < 1.8 * font && box.height > 1.8 * line) squeezed.push(own);
    }
    return squeezed;
  });
}

/** The element is drawn and lies wholly inside the window. */
async function inWindow(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return (
      box.width > 0 &&
      box.height > 0 &&
      box.left >= 0 &&
      box.top >= 0 &&
      box.right <= window.innerWidth &&
      box.bottom <= window.innerHeight
    );
  });
}

/** Opens every route and checks it draws without sideways scrolling or squeezed text; `also` looks further. */
async function expectRoutesFit(page: Page, also?: (route: RouteCheck) => Promise<void>): Promise<void> {
  for (const route of ROUTES) {
    await page.goto(`${journey.server.baseUrl}${route.path}`);
    await visible(route.ready(page));
    expect(await sidewaysOverflow(page), route.path).toBeLessThanOrEqual(0);
    expect(await squeezedTexts(page), route.path).toEqual([]);
    await also?.(route);
  }
}

/** /draw with a template, stacked: 生成 stays in the bottom bar, in the window while the page is at the top. */
async function expectStackedDrawFits(page: Page, shot: string): Promise<void> {
  await page.goto(`${journey.server.baseUrl}/draw`);
  await pickTemplate(page, '国风插画', '国潮插画');
  const generate = page.getByRole('button', { name: /^(thunderbolt )?生成$/ });
  await visible(generate);
  expect(await inWindow(generate)).toBe(true);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await screenshot(page, shot);
}

/** The header's own controls: on narrow screens the links fold into 菜单, and credits and the avatar stay. */
async function expectHeaderReachable(page: Page, route: string): Promise<void> {
  const header = page.locator('.hf-header');
  for (const control of [
    header.getByRole('button', { name: '菜单', exact: true }),
    header.getByRole('button', { name: /剩余 .* 点/ }),
    header.getByRole('button', { name: '用户菜单' }),
  ]) {
    await visible(control);
    expect(await inWindow(control), `${route}: ${control}`).toBe(true);
  }
}

describe('layout on phones and tablets', () => {
  it('draws every route at 390×844 without sideways scrolling or squeezed text, with the header controls in reach', async () => {
    // An administrator can see every route.
    const { page } = await loggedInOnDraw(journey, ADMIN, 'phone');
    await expectRoutesFit(page, async (route) => {
      if (route.framed) await expectHeaderReachable(page, route.path);
      await screenshot(page, `phone-${route.name}`);
    });
    await expectStackedDrawFits(page, 'phone-draw-template');

    // The dialogs and drawers of /draw fit the phone: task selection, 词库 and 历史 across the whole width.
    await page.getByRole('button', { name: /切换/ }).click();
    const select = dialog(page, '选择任务模板');
    await visible(select.getByRole('button', { name: /选择模板/ }));
    await expect.poll(() => inWindow(select.locator('.ant-modal-container'))).toBe(true);
    await screenshot(page, 'phone-draw-task-select');
    await select.getByRole('button', { name: /^(Close|关闭)$/ }).click();
    await hidden(select);
    const positive = page.getByRole('region', { name: '正向提示词' });
    for (const [button, title] of [
      ['词库', '正向词库'],
      ['历史', '提示词历史'],
    ] as const) {
      await positive.getByRole('button', { name: button }).click();
      const drawer = page.locator('.ant-drawer-content-wrapper').filter({ hasText: title });
      await visible(drawer);
      await expect.poll(async () => Math.round((await drawer.boundingBox())?.width ?? 0)).toBe(390);
      await screenshot(page, `phone-draw-${button === '词库' ? 'library' : 'history'}`);
      await drawer.getByRole('button', { name: /^(Close|关闭)$/ }).click();
      await hidden(drawer);
    }

    // An account dialog from the avatar's menu.
    await chooseUserMenuItem(page, '个人信息');
    const profile = dialog(page, '个人信息');
    await visible(profile);
    await expect.poll(() => inWindow(profile.locator('.ant-modal-container'))).toBe(true);
    await screenshot(page, 'phone-profile');
    await page.context().close();
  });

  it('draws every route at 768×1024 without sideways scrolling or squeezed text', async () => {
    const { page } = await loggedInOnDraw(journey, ADMIN, 'tablet');
    await expectRoutesFit(page);
    // An upright tablet stacks /draw as a phone does, with the wider bottom bar.
    await expectStackedDrawFits(page, 'tablet-draw');
    await page.goto(`${journey.server.baseUrl}/admin/users`);
    await visible(page.getByRole('heading', { name: '用户管理' }));
    await screenshot(page, 'tablet-admin-users');
    await page.context().close();
  });
});
