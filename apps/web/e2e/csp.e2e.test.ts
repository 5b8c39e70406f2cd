import { describe, expect, it } from 'vitest';
import { pickTemplate } from './draw-ui';
import { newPage, registerInvitedUser, setupJourney } from './harness';
import { logInFromHome } from './ui';

const journey = setupJourney();

describe('content security policy', () => {
  it('renders the home and drawing pages styled, with no CSP violation', async () => {
    const { server, browser } = journey;
    const { context, page } = await newPage(browser);
    // Every refusal of the page's policy, on whichever page of the journey it happens.
    const violations: string[] = [];
    await context.exposeFunction('reportCspViolation', (line: string) => violations.push(line));
    await context.addInitScript(() => {
      const report = (window as unknown as { reportCspViolation(line: string): void }).reportCspViolation;
      document.addEventListener('securitypolicyviolation', (event) =>
        report(
          `${event.effectiveDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber} ${event.sample}`,
        ),
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

    // The page is under the policy at all: its own style nonce, and scripts from our origin only.
    const home = await page.goto(`${server.baseUrl}/`);
    expect(home?.headers()['content-security-policy']).toMatch(/style-src 'self' 'nonce-[^']+'/);
    expect(home?.headers()['content-security-policy']).toContain("script-src 'self';");
    await page.locator('.hf-header-right').waitFor({ state: 'visible' });
    expect(violations).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
