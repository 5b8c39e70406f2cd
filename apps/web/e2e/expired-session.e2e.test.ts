import { describe, expect, it } from 'vitest';
import { api, invitedUserOnDraw, setupJourney } from './harness';
import { loginDialog, pathname, storedToken, visible } from './ui';

const journey = setupJourney();

describe('a stored session the server no longer accepts', () => {
  it('lands on the login dialog even when the page chunks arrive after the 401', async () => {
    const { server } = journey;
    const { context, page } = await invitedUserOnDraw(journey);
    const token = await storedToken(page);
    expect((await api(server, 'POST', '/api/auth/outLogin', { token: token ?? '' })).status).toBe(200);
    // Only the token is left, as in a tab that kept it while another one signed out.
    await page.evaluate((stale) => {
      window.localStorage.clear();
      window.localStorage.setItem('Authorization', stale);
    }, token ?? '');

    // A slow phone network: the /draw chunks come seconds after the answer that says the session is over.
    await page.route(/\/assets\/(DrawLayout|DrawPage|draw)[^/]*\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await route.continue();
    });
    await page.goto(`${server.baseUrl}/draw`);
    await visible(loginDialog(page), 30_000);
    await page.waitForURL((url) => url.pathname === '/');
    expect(pathname(page)).toBe('/');
    expect(await storedToken(page)).toBeNull();
    await context.close();
  });
});
