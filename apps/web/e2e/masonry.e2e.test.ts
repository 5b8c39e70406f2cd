import type { PublicWorkItem } from '@huafang/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, screenshot, setupJourney } from './harness';
import { visible } from './ui';

/** A tall work first, then squares: the layout that used to stack the second work under the first. */
const SIZES = [
  [512, 1024],
  [512, 512],
  [512, 512],
  [768, 512],
  [512, 512],
  [512, 768],
] as const;

function works(): PublicWorkItem[] {
  return SIZES.map(([width, height], index) => ({
    id: `w${index + 1}`,
    thumbUrl: `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"/>`)}`,
    url: '',
    width,
    height,
    createdAt: '2026-01-01T00:00:00.000Z',
    publishedAt: '2026-01-01T00:00:00.000Z',
    templateId: null,
    templateName: `作品${index + 1}`,
    views: 0,
    likes: 0,
    favorites: 0,
    liked: false,
    favorited: false,
    author: { nickname: `作者${index + 1}`, avatar: null },
  }));
}

/**
 * Both galleries' lists answer with the works above, so the test is about the layout alone. The server renders these
 * pages with its own works; without the data it rendered them with, the browser renders the page afresh and asks
 * for the lists itself.
 */
async function servePublicWorks(page: Page, pageUrl: string): Promise<void> {
  await page.route(pageUrl, async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace(
      /<script type="application\/json" id="hf-rendered-state">.*?<\/script>/s,
      '',
    );
    const headers = Object.fromEntries(
      Object.entries(response.headers()).filter(([name]) => !['content-encoding', 'content-length'].includes(name)),
    );
    await route.fulfill({ status: response.status(), headers, body });
  });
  const list = works();
  await page.route(/\/api\/works\/public(\/list)?\?/, (route) =>
    route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({ code: 0, msg: 'ok', data: { list, current: 1, pageSize: 20, total: list.length } }),
    }),
  );
}

/** The top-left corner of each work's card, in the order of the list. */
async function cardCorners(page: Page): Promise<{ x: number; y: number }[]> {
  const corners: { x: number; y: number }[] = [];
  for (const [index] of SIZES.entries()) {
    const box = await page
      .getByRole('button', { name: `查看作品：作品${index + 1}（作者${index + 1}）` })
      .boundingBox();
    if (!box) throw new Error(`work ${index + 1} has no box`);
    corners.push({ x: Math.round(box.x), y: Math.round(box.y) });
  }
  return corners;
}

describe('work masonry', () => {
  const journey = setupJourney();

  for (const [where, url] of [
    ['灵感广场', '/omnibus'],
    ['最新作品 on the home page', '/'],
  ] as const) {
    it(`lays the works of ${where} out left to right across the top row`, async () => {
      const { context, page } = await newPage(journey.browser);
      await servePublicWorks(page, `${journey.server.baseUrl}${url}`);
      await page.goto(`${journey.server.baseUrl}${url}`);
      await visible(page.getByRole('button', { name: /^查看作品：作品6/ }));
      const corners = await cardCorners(page);
      await screenshot(page, `masonry-${url === '/' ? 'home' : 'omnibus'}`);

      // At 1440 px wide at least four columns fit: the first four works share the top row, left to right.
      for (let i = 1; i < 4; i++) {
        expect(corners[i]?.y, `work ${i + 1} starts the top row`).toBe(corners[0]?.y);
        expect(corners[i]?.x, `work ${i + 1} is right of work ${i}`).toBeGreaterThan(corners[i - 1]?.x ?? 0);
      }
      await context.close();
    });
  }
});
