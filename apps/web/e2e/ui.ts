import type { Locator, Page } from 'playwright-core';
import type { ScreenName } from './harness';

/** An open dialog, found by its title (antd names a Modal's `role="dialog"` by its title). */
export function dialog(page: Page, title: string): Locator {
  return page.getByRole('dialog', { name: title });
}

/** The login dialog has no title: it is the dialog that says 登录画坊. */
export function loginDialog(page: Page): Locator {
  return page.getByRole('dialog').filter({ hasText: '登录画坊' });
}

/** An open confirmation (Modal.confirm), found by its question. */
export function confirmation(page: Page, question: string): Locator {
  return page.getByRole('dialog').filter({ hasText: question });
}

/**
 * The toasts on screen: antd's message list shows each as an alert. Scoped to the list, since inline warnings
 * and form errors are alerts too.
 */
export function toasts(page: Page): Locator {
  return page.locator('.ant-message').getByRole('alert');
}

export function toast(page: Page, text: string): Locator {
  return toasts(page).filter({ hasText: text });
}

export async function visible(locator: Locator, timeout = 15_000): Promise<void> {
  await locator.first().waitFor({ state: 'visible', timeout });
}

export async function hidden(locator: Locator, timeout = 15_000): Promise<void> {
  await locator.first().waitFor({ state: 'hidden', timeout });
}

/**
 * Picks `option` in the antd Select whose combobox is `combobox`. A tap that lands while the dropdown is still
 * opening can be lost (the dropdown stays open), so a person taps again, and so does this, until it has closed.
 */
export async function chooseOption(page: Page, combobox: Locator, option: string): Promise<void> {
  const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').filter({ visible: true });
  const item = dropdown.locator('.ant-select-item-option', { hasText: option }).first();
  for (let attempt = 0; attempt < 5; attempt++) {
    if (!(await item.isVisible())) await combobox.click();
    await visible(item);
    await item.click();
    try {
      await dropdown.first().waitFor({ state: 'hidden', timeout: 2_000 });
      return;
    } catch {
      // Still open: the tap was lost; pick again.
    }
  }
  throw new Error(`could not choose ${option}`);
}

/**
 * The open Popconfirm, optionally the one showing `text`: a popup (`role="tooltip"`) with buttons, unlike a hover
 * tooltip. Closed ones stay in the page hidden, and an opening one is drawn full size, then zooms in from scale 0
 * (not "visible" for a moment).
 */
export function popconfirm(page: Page, text?: string): Locator {
  const open = page.getByRole('tooltip').filter({ has: page.getByRole('button') });
  return text ? open.filter({ hasText: text }) : open;
}

/**
 * Presses `button` in the confirmation dialog `confirm` until the dialog closes. A press that lands while the dialog
 * is still opening can be lost on a loaded machine (the dialog stays and nothing is sent), so a person presses
 * again, and so does this; while the dialog waits on its request (the button shows loading) it is left alone.
 * An opening dialog is drawn at zero size for a moment (antd's zoom), so "closed" means hidden and still hidden
 * half a second later, and the button is waited for before each press.
 */
export async function confirmWith(
  confirm: Locator,
  button: string,
  press: (target: Locator) => Promise<void> = (target) => target.click(),
): Promise<void> {
  await visible(confirm);
  const ok = confirm.first().getByRole('button', { name: button, exact: true });
  for (let attempt = 0; attempt < 4; attempt++) {
    const shown = await ok.waitFor({ state: 'visible', timeout: 3_000 }).then(
      () => true,
      () => false,
    );
    if (shown) {
      const loading = await ok.evaluate((element) => element.classList.contains('ant-btn-loading')).catch(() => false);
      if (!loading) await press(ok).catch(() => undefined);
    }
    if (await staysHidden(confirm)) return;
  }
  await hidden(confirm);
}

async function staysHidden(locator: Locator): Promise<boolean> {
  try {
    await hidden(locator, 3_000);
  } catch {
    return false;
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  return !(await locator.first().isVisible());
}

export function pathname(page: Page): string {
  return new URL(page.url()).pathname;
}

/**
 * Presses `tab` until it is the selected one: a press that lands while its dialog or drawer is still opening can be
 * lost on a loaded machine, and a person would press again.
 */
export async function chooseTab(
  tab: Locator,
  press: (target: Locator) => Promise<void> = (target) => target.click(),
): Promise<void> {
  for (let attempt = 0; attempt < 4; attempt++) {
    await press(tab).catch(() => undefined);
    const selected = await expectSelected(tab, 3_000);
    if (selected) return;
  }
  throw new Error('the tab was pressed four times and never became the selected one');
}

async function expectSelected(tab: Locator, timeout: number): Promise<boolean> {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    if ((await tab.getAttribute('aria-selected').catch(() => null)) === 'true') return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** Opens the login dialog from the header of the current page. */
export async function openLogin(page: Page): Promise<Locator> {
  await page.locator('.hf-header-right').getByRole('button', { name: '登录' }).click();
  const login = loginDialog(page);
  await visible(login);
  return login;
}

export async function loginWithAccount(page: Page, account: string, password: string): Promise<void> {
  const login = loginDialog(page);
  await chooseTab(login.getByRole('tab', { name: '账号登录' }));
  await login.getByPlaceholder('请输入账号').fill(account);
  await login.getByPlaceholder('请输入密码').fill(password);
  await login.getByRole('button', { name: '登录', exact: true }).click();
}

/**
 * The page asks for a login by itself (a page that needs a session, or `/?login=1`): waits for its login dialog and
 * logs in through 账号登录.
 */
export async function logInWhenAsked(page: Page, account: string, password: string): Promise<void> {
  await visible(loginDialog(page));
  await loginWithAccount(page, account, password);
}

/** From the home page, through the header's 登录 button and the 账号登录 tab. */
export async function logInFromHome(page: Page, baseUrl: string, account: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await openLogin(page);
  await loginWithAccount(page, account, password);
}

/**
 * Logs in from the home page as someone who lands on /draw (an admin, or a user who accepted an invite), and waits
 * for 登录成功 to go: one toast shows at a time (spec §8), so the next one must not be dropped behind it.
 */
export async function logInToDraw(page: Page, baseUrl: string, account: string, password: string): Promise<void> {
  await logInFromHome(page, baseUrl, account, password);
  await page.waitForURL('**/draw');
  await hidden(toasts(page));
}

/** Waits for the toast saying `text`, then for it to go: one toast shows at a time (spec §8). */
export async function seeToast(page: Page, text: string): Promise<void> {
  await visible(toast(page, text));
  await hidden(toasts(page));
}

/**
 * Opens the admin page `label` (at `path`) from the admin menu: the side menu on a desktop, the 后台菜单 drawer on
 * a phone.
 */
export async function openAdminPage(
  page: Page,
  baseUrl: string,
  screen: ScreenName,
  label: string,
  path: string,
): Promise<void> {
  await page.goto(`${baseUrl}/admin`);
  if (screen === 'desktop') {
    await page.getByRole('menuitem', { name: label }).click();
  } else {
    await press(screen, page.getByRole('button', { name: '后台菜单' }));
    const drawer = dialog(page, '后台菜单');
    await press(screen, drawer.getByRole('menuitem', { name: label }));
    // The choice closes the drawer; until it has gone it covers the page the test goes on with.
    await hidden(drawer);
  }
  await page.waitForURL(`**${path}`);
  await visible(page.getByRole('heading', { name: label }));
}

export async function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(() => window.localStorage.getItem('Authorization'));
}

/**
 * Opens the header's user menu and chooses an item. A click that lands while the dropdown is still animating
 * in can be lost (the menu stays open), so the choice is retried until the menu has closed.
 */
export async function chooseUserMenuItem(page: Page, name: string | RegExp): Promise<void> {
  const item = page.getByRole('menuitem', { name });
  for (let attempt = 0; attempt < 5; attempt++) {
    if (!(await item.isVisible())) await page.locator('.hf-user-trigger').click();
    await visible(item);
    await item.click();
    try {
      await item.waitFor({ state: 'hidden', timeout: 2_000 });
      return;
    } catch {
      // Still open: the click was lost; choose again.
    }
  }
  throw new Error(`could not choose ${String(name)} in the user menu`);
}

/** A tap on touch screens, a click on the desktop: what the user of that screen does. */
export function press(screen: ScreenName, locator: Locator): Promise<void> {
  return screen === 'desktop' ? locator.click() : locator.tap();
}

/**
 * How far the page reaches past the right edge of the screen (0 when nothing scrolls sideways). A mobile
 * browser widens its layout viewport to fit a page that is too wide, so innerWidth is measured too.
 */
export function sidewaysOverflow(page: Page): Promise<number> {
  const screenWidth = page.viewportSize()?.width ?? 0;
  return page.evaluate(
    (width) => Math.max(document.documentElement.scrollWidth, window.innerWidth) - width,
    screenWidth,
  );
}

/** The element reaching furthest past the right edge of a screen `width` wide, as `tag.class` and its right edge. */
export interface SidewaysOffender {
  element: string;
  right: number;
}

/**
 * What makes the page scroll sideways: of the elements reaching past the right edge of the screen, the one reaching
 * furthest (the innermost of equals, as that is usually the content that pushed its boxes wider). Elements inside
 * a box that clips or scrolls its own overflow are left out: they widen that box, not the page.
 */
export function widestSidewaysOffender(page: Page): Promise<SidewaysOffender | null> {
  const screenWidth = page.viewportSize()?.width ?? 0;
  return page.evaluate((width) => {
    /** Null for an element inside a box that clips or scrolls its overflow; whether it is fixed to the screen. */
    const placement = (element: Element) => {
      let fixed = false;
      for (let box: Element | null = element; box && box !== document.body; box = box.parentElement) {
        const style = getComputedStyle(box);
        if (box !== element && style.overflowX !== 'visible') return null;
        if (style.position === 'fixed') fixed = true;
      }
      return { fixed };
    };
    let widest: { element: Element; right: number } | null = null;
    for (const element of document.body.querySelectorAll('*')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      const placed = placement(element);
      if (!placed) continue;
      // Measured on the page, not the screen (it may be scrolled sideways already), unless fixed to the screen.
      const right = box.right + (placed.fixed ? 0 : window.scrollX);
      if (right > width + 0.5 && (!widest || right >= widest.right)) widest = { element, right };
    }
    if (!widest) return null;
    const { element, right } = widest;
    const classes = typeof element.className === 'string' ? element.className.trim().split(/\s+/).filter(Boolean) : [];
    return { element: [element.tagName.toLowerCase(), ...classes].join('.'), right: Math.round(right) };
  }, screenWidth);
}
