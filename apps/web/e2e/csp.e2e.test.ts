import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pickTemplate } from './draw-ui';
import { newPage, registerInvitedUser, setupJourney } from './harness';
import { logInFromHome } from './ui';

const journey = setupJourney();

/** What the page's Content-Security-Policy refused so far, as `directive blocked-uri` lines. */
function violations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

describe('content security policy', () => {
  it('renders the home and drawing pages styled, with no CSP violation', async () => {
    const { server, browser } = journey;
    const { context, page } = await newPage(browser);
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) =>
        seen.push(`${event.effectiveDirective} ${event.blockedURI}`),
      );
    });
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
        consoleErrors.push(message.text());
      }
    });

    const user = await registerInvitedUser(server);
    await logInFromHome(page, server.baseUrl, user.account, user.password);
    await page.waitForURL('**/draw');
    await pickTemplate(page, '国风插画', '国潮插画');

    // antd's CSS-in-JS reached the page: every injected <style> carries the nonce and the button is themed.
    const styles = await page.evaluate(() =>
      [...document.querySelectorAll('style')].map((style) => Boolean(style.nonce)),
    );
    expect(styles.length).toBeGreaterThan(0);
    expect(styles.every(Boolean)).toBe(true);
    const generate = page.locator('.hf-generate-button');
    const background = await generate.evaluate((button) => getComputedStyle(button).backgroundColor);
    expect(background).not.toBe('rgba(0, 0, 0, 0)');

    await page.goto(`${server.baseUrl}/`);
    await page.locator('.hf-header-right').waitFor({ state: 'visible' });
    expect(await violations(page)).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
