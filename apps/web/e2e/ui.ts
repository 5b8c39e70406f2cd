import type { Locator, Page } from 'playwright-core';

/** An open antd dialog, found by its title (or, for the untitled login dialog, by its text). */
export function dialog(page: Page, title: string): Locator {
  return page
    .locator('.ant-modal')
    .filter({ has: page.locator('.ant-modal-title', { hasText: title }) })
    .filter({ visible: true });
}

export function loginDialog(page: Page): Locator {
  return page.locator('.ant-modal').filter({ hasText: '登录画坊' }).filter({ visible: true });
}

export function toast(page: Page, text: string): Locator {
  return page.locator('.ant-message-notice').filter({ hasText: text });
}

export async function visible(locator: Locator, timeout = 15_000): Promise<void> {
  await locator.first().waitFor({ state: 'visible', timeout });
}

export async function hidden(locator: Locator, timeout = 15_000): Promise<void> {
  await locator.first().waitFor({ state: 'hidden', timeout });
}

export function pathname(page: Page): string {
  return new URL(page.url()).pathname;
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
  await login.getByRole('tab', { name: '账号登录' }).click();
  await login.getByPlaceholder('请输入账号').fill(account);
  await login.getByPlaceholder('请输入密码').fill(password);
  await login.getByRole('button', { name: '登录', exact: true }).click();
}

/** From the home page, through the header's 登录 button and the 账号登录 tab. */
export async function logInFromHome(page: Page, baseUrl: string, account: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await openLogin(page);
  await loginWithAccount(page, account, password);
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
