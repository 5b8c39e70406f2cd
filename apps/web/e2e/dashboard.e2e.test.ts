import { STORAGE_KEYS } from '@huafang/contracts';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminToken, newPage, screenshot, setupJourney } from './harness';
import { visible } from './ui';

/** The horizontal extent of every date label drawn under the bars of one chart. */
async function labelSpans(chart: Locator): Promise<{ text: string; left: number; right: number }[]> {
  return chart.evaluate((figure) =>
    [...figure.querySelectorAll('li span:last-child')]
      .filter((label) => (label.textContent ?? '').trim() !== '')
      .map((label) => {
        const box = label.getBoundingClientRect();
        return { text: label.textContent ?? '', left: box.left, right: box.right };
      }),
  );
}

describe('数据看板 charts', () => {
  const journey = setupJourney();

  it('keeps the date labels apart at 7, 14 and 30 days and shows the figures without hovering', async () => {
    const token = await adminToken(journey.server);
    const { context, page } = await newPage(journey.browser);
    await context.addInitScript(
      ([tokenKey, adminKey, value]) => {
        window.localStorage.setItem(tokenKey as string, value as string);
        window.localStorage.setItem(adminKey as string, 'true');
      },
      [STORAGE_KEYS.authorization, STORAGE_KEYS.isAdmin, token],
    );
    await page.goto(`${journey.server.baseUrl}/admin/dashboard`);
    const chart = page.getByRole('figure', { name: '每日生成次数' });
    await visible(chart);

    for (const [window, days] of [
      ['近 30 天', 30],
      ['近 14 天', 14],
      ['近 7 天', 7],
    ] as const) {
      await page.getByText(window, { exact: true }).click();
      await expect.poll(() => chart.getByRole('listitem').count()).toBe(days);
      const labels = await labelSpans(chart);
      expect(labels.length, `${window}: some days are named`).toBeGreaterThan(1);
      for (let i = 1; i < labels.length; i++) {
        const [previous, next] = [labels[i - 1], labels[i]];
        expect(next?.left, `${window}: ${next?.text} starts after ${previous?.text} ends`).toBeGreaterThan(
          previous?.right ?? 0,
        );
      }
      // The newest day is always named, and the totals are on screen without a hover.
      const today = await chart.getByRole('listitem').last().getAttribute('aria-label');
      expect(labels.at(-1)?.text).toBe(today?.slice(5, 10));
      await visible(chart.getByText(/^合计 \d+ 次 · 日均 [\d.]+ 次/));
      if (days === 30) await screenshot(page, 'admin-dashboard-30-days');
    }
    // A week leaves room for every day's value over its bar.
    await visible(chart.getByRole('listitem').last().getByText(/^\d+$/));
    await screenshot(page, 'admin-dashboard-7-days');
    await context.close();
  });
});
