import { STORAGE_KEYS } from '@huafang/contracts';
import type { Browser } from 'playwright-core';

/**
 * What a first visit to `/` may move on the wire: the page and every script and style sheet it loads. It was
 * 250 kB until `/` arrived rendered: the page now carries its first screen's antd styles inline (20–23 kB
 * compressed), which lets a phone show it in about 0.6 s instead of 3 s (docs/web.md § 首屏).
 */
export const FIRST_VISIT_BUDGET_BYTES = 275_000;

export interface LoadedFile {
  name: string;
  /** Bytes on the wire: headers and the (compressed) body. */
  wire: number;
  /** The body as sent, compressed when the server compressed it. */
  compressed: number;
  /** The body after decompression. */
  raw: number;
}

export interface FirstVisit {
  path: string;
  files: LoadedFile[];
  wire: number;
  compressed: number;
  raw: number;
}

/**
 * Opens `path` in a fresh browser context (nothing cached) and sums what the visit loaded of the page, scripts
 * and style sheets once the network has gone quiet, from the browser's own resource timing. Images and API
 * answers are left out: they are content, not the app. With `token` the visitor is signed in from the start.
 */
export async function measureFirstVisit(
  browser: Browser,
  baseUrl: string,
  path: string,
  token?: string,
): Promise<FirstVisit> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  try {
    if (token) {
      await context.addInitScript(
        ([key, value]) => window.localStorage.setItem(key as string, value as string),
        [STORAGE_KEYS.authorization, token],
      );
    }
    const page = await context.newPage();
    await page.goto(`${baseUrl}${path}`, { waitUntil: 'networkidle' });
    const files = await page.evaluate(() => {
      const navigation = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
      const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((entry) =>
        /\.(js|css)$/.test(new URL(entry.name).pathname),
      );
      return [...navigation, ...resources].map((entry) => ({
        name: new URL(entry.name).pathname,
        wire: entry.transferSize,
        compressed: entry.encodedBodySize,
        raw: entry.decodedBodySize,
      }));
    });
    const sum = (key: 'wire' | 'compressed' | 'raw') => files.reduce((total, file) => total + file[key], 0);
    return { path, files, wire: sum('wire'), compressed: sum('compressed'), raw: sum('raw') };
  } finally {
    await context.close();
  }
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

/** The visits as a table: one line per page, totals in kB (1 kB = 1000 bytes). */
export function visitTable(visits: FirstVisit[]): string {
  const head = ['page', 'files', 'on the wire', 'compressed body', 'raw'];
  const rows = visits.map((visit) => [
    visit.path,
    String(visit.files.length),
    kb(visit.wire),
    kb(visit.compressed),
    kb(visit.raw),
  ]);
  const widths = head.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i]?.length ?? 0)));
  return [head, ...rows].map((row) => row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ')).join('\n');
}
