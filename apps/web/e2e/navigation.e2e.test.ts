import { describe, expect, it } from 'vitest';
import { newPage, screenshot, setupJourney } from './harness';
import { loginDialog, pathname, visible } from './ui';

const journey = setupJourney();

describe('routes', () => {
  it('/login redirects to / and opens the login dialog', async () => {
    const { server, browser } = journey;
    const { context, page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/login`);
    await visible(loginDialog(page));
    expect(pathname(page)).toBe('/');
    // It opens on 手机登录, which also signs a new mobile up.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('placeholder'))).toBe('请输入手机号');
    await context.close();
  });

  it('asks to log in before starting from the home prompt box', async () => {
    const { server, browser } = journey;
    const { context, page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/`);
    await page.getByPlaceholder('描述你想要的画面…').fill('水墨山水');
    await page.getByPlaceholder('描述你想要的画面…').press('Enter');
    await visible(loginDialog(page));
    expect(pathname(page)).toBe('/');
    await context.close();
  });

  it('opens agreements in a new tab as a centred document', async () => {
    const { server, browser } = journey;
    const { context, page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/`);
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      page.locator('.hf-footer').getByText('隐私协议').click(),
    ]);
    await tab.waitForLoadState();
    expect(pathname(tab)).toBe('/privacyAgreement');
    await visible(tab.locator('.hf-doc h2'));
    expect((await tab.locator('.hf-doc-content').textContent())?.length ?? 0).toBeGreaterThan(20);
    await context.close();
  });

  it('shows 404 for an unknown route', async () => {
    const { server, browser } = journey;
    const { context, page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/no/such/page`);
    await visible(page.getByText('抱歉，你访问的页面不存在'));
    await context.close();
  });

  it('shows "Loading chunk N failed" when a page chunk cannot load, and 重试 recovers', async () => {
    const { server, browser } = journey;
    const { context, page } = await newPage(browser);
    await page.route(/\/assets\/OmnibusPage-[^/]*\.js$/, (route) => route.abort());
    await page.goto(`${server.baseUrl}/omnibus`);
    await visible(page.getByText('Loading chunk omnibus failed'));
    await visible(page.locator('.hf-header'));
    await screenshot(page, 'chunk-error');

    await page.unroute(/\/assets\/OmnibusPage-[^/]*\.js$/);
    await page.getByRole('button', { name: '重试' }).click();
    await visible(page.getByRole('heading', { name: '灵感广场' }));
    await context.close();
  });
});
