import { describe, expect, it } from 'vitest';
import { api, generateAndWait, loggedInOnDraw, registerInvitedUser, screenshot, setupJourney } from './harness';
import { chooseUserMenuItem, visible } from './ui';

const journey = setupJourney();

describe('算力明细', () => {
  for (const screen of ['desktop', 'phone'] as const) {
    it(`lists the user's run with its cost, the sign-up credits and the balance at ${screen} size`, async () => {
      const { server } = journey;
      const user = await registerInvitedUser(server);
      await generateAndWait(server, user, { prompt: '雪山日出', steps: 4, batchSize: 2 });
      const me = await api<{ credits: number }>(server, 'GET', '/api/user/currentUser', { token: user.token });

      const { context, page } = await loggedInOnDraw(journey, user, screen);
      await chooseUserMenuItem(page, '算力明细');
      await visible(page.getByRole('heading', { name: '算力明细' }));
      await visible(page.locator('.ant-statistic', { hasText: '当前算力' }).getByText(String(me.data.credits)));

      const rows = page.getByRole('region', { name: '算力变化记录' }).locator('.hf-credit-row');
      const run = rows.filter({ hasText: '生成消耗' });
      await visible(run);
      await expect.poll(() => run.locator('.hf-credit-delta').textContent()).toBe('-2');
      await visible(rows.last().getByText('注册赠送'));
      expect(await rows.first().locator('.hf-credit-balance').textContent()).toBe(`余额 ${me.data.credits}`);

      await screenshot(page, `${screen}-credits`);
      await context.close();
    });
  }
});
