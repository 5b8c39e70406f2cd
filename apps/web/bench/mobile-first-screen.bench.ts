import { existsSync } from 'node:fs';
import path from 'node:path';
import { STORAGE_KEYS } from '@huafang/contracts';
import type { Browser } from 'playwright-core';
import { adminToken, api, launchBrowser, REPO_ROOT, registerUserViaApi, startServer } from '../e2e/harness';

/**
 * Figures, printed, never asserted: how soon a first visit on a phone over mobile data shows the page's content
 * (issue 24's table). Chromium at 390×844 on Lighthouse's mobile profile (150 ms round trip, 1.6 Mbps down,
 * 750 kbps up, CPU 4× slower), nothing cached, against the real server and the built app; the median of 3 visits.
 */
if (!existsSync(path.join(REPO_ROOT, 'apps/web/dist/index.html'))) {
  throw new Error('apps/web/dist is missing: run npm run build first');
}

const VISITS = 3;
const GOALS: Record<string, number> = { '/': 1500, '/omnibus': 1500, '/draw': 2500 };

/**
 * Injected before any of the page's scripts (as text: the compiler would add helpers a function cannot take along): the first frame in which the page shows Chinese text below its
 * header (outside <header>, inside the viewport) while no loading spinner is spinning and the blank first-load screen
 * is not covering it, in performance.now() time.
 */
const WATCH_CONTENT = `(() => {
  const CHINESE = /[\\u4e00-\\u9fff]/;
  window.__cls = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__cls += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
  const shows = () => {
    if (!document.body) return false;
    // The blank first-load screen (a stored credential, no stored user yet) covers the page as a spinner would.
    for (const spinner of document.querySelectorAll('.ant-spin-spinning, .hf-page-loading, .hf-blank-screen')) {
      const rect = spinner.getBoundingClientRect();
      if (rect.height > 0 && rect.top < window.innerHeight && rect.bottom > 0) return false;
    }
    const header = document.querySelector('header, .ant-layout-header');
    const below = header ? header.getBoundingClientRect().bottom : 0;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !CHINESE.test(node.textContent || '')) continue;
      if (parent.closest('header, .ant-layout-header, script, style, title, noscript')) continue;
      const rect = parent.getBoundingClientRect();
      if (rect.width > 0 && rect.height > 0 && rect.top >= below - 1 && rect.top < window.innerHeight) {
        const style = getComputedStyle(parent);
        if (style.visibility !== 'hidden' && style.opacity !== '0') return true;
      }
    }
    return false;
  };
  const poll = () => {
    if (window.__contentAt === undefined && shows()) window.__contentAt = performance.now();
    if (window.__contentAt === undefined) requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
})();`;

interface Visit {
  contentMs: number;
  fcpMs: number;
  bytes: number;
  cls: number;
}

async function visit(browser: Browser, baseUrl: string, pagePath: string, token?: string): Promise<Visit> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
    // Lighthouse's phone: the server lays a page out for a phone when the browser says it is one.
    userAgent:
      'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
    locale: 'zh-CN',
  });
  try {
    if (token) {
      await context.addInitScript(
        ([key, value]) => window.localStorage.setItem(key as string, value as string),
        [STORAGE_KEYS.authorization, token],
      );
    }
    await context.addInitScript({ content: WATCH_CONTENT });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    let bytes = 0;
    cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => {
      bytes += event.encodedDataLength;
    });
    await page.goto(`${baseUrl}${pagePath}`, { waitUntil: 'networkidle', timeout: 60_000 });
    await page
      .waitForFunction(() => (window as unknown as { __contentAt?: number }).__contentAt !== undefined, null, {
        timeout: 30_000,
      })
      .catch(async (error: unknown) => {
        throw new Error(
          `${pagePath} never showed its content: ${((await page.locator('body').textContent()) ?? '').slice(0, 300)}`,
          {
            cause: error,
          },
        );
      });
    // A moment more for shifts caused by late images.
    await page.waitForTimeout(500);
    const figures = await page.evaluate(() => {
      const state = window as unknown as { __contentAt: number; __cls: number };
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
      return { contentAt: state.__contentAt, fcp, cls: state.__cls };
    });
    // Text already in the DOM shows no sooner than the browser first paints.
    return { contentMs: Math.max(figures.contentAt, figures.fcp), fcpMs: figures.fcp, bytes, cls: figures.cls };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A few public works so 灵感广场 and the home page's latest works have pictures, as they do in use. */
async function publishWorks(server: Awaited<ReturnType<typeof startServer>>): Promise<void> {
  const author = await registerUserViaApi(server);
  const started = await api<{ generateId: string }>(server, 'POST', '/api/generate/task', {
    token: author.token,
    body: {
      templateId: null,
      stepIndex: 0,
      promptGroup: [{ id: 'free-0', groupName: '江南水乡', promptText: '江南水乡', custom: '1' }],
      negativePromptGroup: [],
      parameters: { width: 512, height: 512, steps: 4, batchSize: 4 },
    },
  });
  if (started.code !== 0) throw new Error(`generation failed: ${started.msg}`);
  for (let tries = 0; tries < 300; tries += 1) {
    const progress = await api<{ status: string }>(server, 'POST', '/api/generate/task/progress', {
      token: author.token,
      body: { generateId: started.data.generateId },
    });
    if (progress.data.status === 'succeeded') break;
    if (progress.data.status === 'failed') throw new Error('generation failed');
    await sleep(200);
  }
  const mine = await api<{ list: { id: string }[] }>(server, 'GET', '/api/works/profile?current=1&pageSize=30', {
    token: author.token,
  });
  for (const work of mine.data.list) {
    await api(server, 'POST', '/api/works/publish', {
      token: author.token,
      body: { id: work.id, public: true, hidePrompt: false },
    });
  }
}

const server = await startServer();
const browser = await launchBrowser();
try {
  await publishWorks(server);
  const token = await adminToken(server);
  const rows: string[][] = [];
  for (const [pagePath, who] of [
    ['/', undefined],
    ['/omnibus', undefined],
    ['/draw', token],
  ] as const) {
    const visits: Visit[] = [];
    // One visit first to warm the server (its caches, not the browser's: each visit is a fresh context).
    await visit(browser, server.baseUrl, pagePath, who);
    for (let i = 0; i < VISITS; i += 1) visits.push(await visit(browser, server.baseUrl, pagePath, who));
    const content = median(visits.map((v) => v.contentMs));
    rows.push([
      `${pagePath}${who ? ' (logged in)' : ' (guest)'}`,
      `${(content / 1000).toFixed(2)} s`,
      visits.map((v) => (v.contentMs / 1000).toFixed(2)).join(' / '),
      `${(median(visits.map((v) => v.fcpMs)) / 1000).toFixed(2)} s`,
      `${(median(visits.map((v) => v.bytes)) / 1000).toFixed(0)} KB`,
      median(visits.map((v) => v.cls)).toFixed(3),
      `≤ ${((GOALS[pagePath] ?? 0) / 1000).toFixed(1)} s`,
    ]);
  }
  const head = ['page', 'content (median)', 'visits', 'FCP', 'bytes', 'CLS', 'goal'];
  const widths = head.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i]?.length ?? 0)));
  console.log('First screen on a phone over mobile data (390×844, 150 ms RTT, 1.6/0.75 Mbps, CPU 4×, nothing cached)');
  console.log([head, ...rows].map((row) => row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ')).join('\n'));
} finally {
  await browser.close();
  await server.stop();
}
