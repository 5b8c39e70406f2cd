import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pickTemplate } from './draw-ui';
import {
  api,
  generateAndWait,
  loggedInOnDraw,
  newPage,
  randomSuffix,
  registerInvitedUser,
  registerUserViaApi,
  SCREENS,
  type ScreenName,
  setupJourney,
} from './harness';
import { dialog, loginDialog, press, visible } from './ui';

const journey = setupJourney();

/** The page as a crawler or WeChat's card reader gets it: plain HTTP, no script run. */
async function html(
  path: string,
  userAgent: string = SCREENS.wechat.userAgent,
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${journey.server.baseUrl}${path}`, { headers: { 'user-agent': userAgent } });
  return { status: response.status, text: await response.text() };
}

/** What headless Chromium calls itself: the server lays the page out for a desktop. */
const DESKTOP_USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/130.0.0.0 Safari/537.36';

/** The content of `<meta property|name="key">`. */
function meta(text: string, key: string): string | undefined {
  const escaped = key.replace(/[.:]/g, (char) => `\\${char}`);
  return new RegExp(`<meta (?:property|name)="${escaped}" content="([^"]*)"`).exec(text)?.[1];
}

/** Holds back the app's scripts (as a slow network would) until the returned function is called. */
async function holdAppScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

interface Works {
  nickname: string;
  shown: string;
  hidden: string;
  hiddenWords: string;
  unpublished: string;
}

describe('public pages arrive rendered', () => {
  // A page put together with string patterns would read `$$` (and `$` before a backtick) as replacement patterns.
  const shownWords = `雨后的青石板小巷$$\`${randomSuffix(4)}`;
  const hiddenWords = `不可外传的秘方咒语${randomSuffix(4)}`;
  let works: Promise<Works> | undefined;
  /** Made once by the first test that needs them (expect.poll inside generateAndWait waits only inside a test). */
  const authorWorks = () => {
    works ??= (async () => {
      const { server } = journey;
      const author = await registerUserViaApi(server);
      const [shown] = await generateAndWait(server, author, { prompt: shownWords, steps: 4, batchSize: 1 });
      const [hidden] = await generateAndWait(server, author, { prompt: hiddenWords, steps: 4, batchSize: 1 });
      const [unpublished] = await generateAndWait(server, author, { prompt: '没有发布', steps: 4, batchSize: 1 });
      if (!shown || !hidden || !unpublished) throw new Error('the works were not stored');
      for (const [id, hidePrompt] of [
        [shown, false],
        [hidden, true],
      ] as const) {
        const published = await api(server, 'POST', '/api/works/publish', {
          token: author.token,
          body: { id, public: true, hidePrompt },
        });
        expect(published.code, published.msg).toBe(0);
      }
      return { nickname: author.nickname, shown, hidden, hiddenWords, unpublished };
    })();
    return works;
  };

  it("holds the first screen's Chinese text of / and /omnibus before any script runs", async () => {
    const { nickname } = await authorWorks();
    const home = await html('/');
    expect(home.status).toBe(200);
    expect(home.text).toContain('让每一个想象，都跃然纸上');
    expect(home.text).toContain('最新作品');
    expect(home.text).toContain(nickname);
    expect(home.text).toMatch(/<title>画坊<\/title>/);
    expect(meta(home.text, 'description')).toBeTruthy();

    const omnibus = await html('/omnibus');
    expect(omnibus.status).toBe(200);
    expect(omnibus.text).toMatch(/<h3[^>]*>灵感广场<\/h3>/);
    expect(omnibus.text).toContain(nickname);
    expect(omnibus.text).toContain('<title>灵感广场 - 画坊</title>');
    // Every inline style is allowed by this answer's nonce; no inline script is needed.
    const nonce = /<meta property="csp-nonce" nonce="([^"]+)"/.exec(omnibus.text)?.[1];
    expect(nonce).toBeTruthy();
    for (const tag of omnibus.text.match(/<style[^>]*>/g) ?? []) expect(tag).toContain(`nonce="${nonce}"`);
    for (const tag of omnibus.text.match(/<script[^>]*>/g) ?? []) expect(tag).toMatch(/src=|type="application\/json"/);
  });

  it("gives a shared work's page its Open Graph card: title, description, absolute image and address", async () => {
    const { server } = journey;
    const { nickname, shown } = await authorWorks();
    const page = await html(`/work/${shown}`);
    expect(page.status).toBe(200);
    const title = `${nickname}的作品「自由创作」 - 画坊`;
    expect(page.text).toContain(`<title>${title}</title>`);
    expect(meta(page.text, 'og:title')).toBe(title);
    expect(meta(page.text, 'og:type')).toBe('article');
    expect(meta(page.text, 'og:url')).toBe(`${server.baseUrl}/work/${shown}`);
    expect(meta(page.text, 'og:description')).toContain(nickname);
    expect(meta(page.text, 'twitter:card')).toBe('summary_large_image');
    const image = meta(page.text, 'og:image') ?? '';
    expect(image.startsWith(`${server.baseUrl}/`)).toBe(true);
    const picture = await fetch(image.replaceAll('&#38;', '&'));
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toMatch(/^image\//);
    // The author showed their words: the page holds them, as the browser would show them.
    expect(page.text).toContain(shownWords);
  });

  it('renders no hidden prompt, and answers 404 for a work that is not public', async () => {
    const { hidden, unpublished } = await authorWorks();
    const page = await html(`/work/${hidden}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<meta property="og:title"');
    expect(page.text).not.toContain(hiddenWords);
    const gone = await html(`/work/${unpublished}`);
    expect(gone.status).toBe(404);
    expect(gone.text).not.toContain('没有发布');
    expect(gone.text).not.toContain('og:title');
  });

  for (const screen of ['phone', 'desktop'] as ScreenName[]) {
    it(`hydrates the rendered pages without a console error or a fresh render (${screen})`, async () => {
      const { server, browser } = journey;
      const { shown } = await authorWorks();
      for (const path of ['/', '/omnibus', `/work/${shown}`]) {
        const { context, page } = await newPage(browser, screen);
        const errors: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') errors.push(message.text());
        });
        page.on('pageerror', (error) => errors.push(error.message));
        // The server's first element of #root, kept before any script runs: hydration keeps it, a fresh render
        // would replace it.
        await context.addInitScript(() => {
          document.addEventListener('readystatechange', () => {
            if (document.readyState !== 'interactive') return;
            (window as unknown as { rendered: Element | null }).rendered =
              document.getElementById('root')?.firstElementChild ?? null;
          });
        });
        await page.goto(`${server.baseUrl}${path}`, { waitUntil: 'networkidle' });
        await visible(page.locator('.hf-header'));
        const kept = await page.evaluate(() => {
          const rendered = (window as unknown as { rendered: Element | null }).rendered;
          return rendered !== null && rendered === document.getElementById('root')?.firstElementChild;
        });
        expect(kept, path).toBe(true);
        expect(errors, path).toEqual([]);
        await context.close();
      }
    });
  }

  for (const screen of ['phone', 'desktop'] as ScreenName[]) {
    it(`keeps a guest's tap made on the rendered page before the app has taken it over (${screen})`, async () => {
      const { server, browser } = journey;
      const { nickname } = await authorWorks();
      const { page, context } = await newPage(browser, screen);
      const release = await holdAppScripts(page);
      await page.goto(`${server.baseUrl}/omnibus`, { waitUntil: 'commit' });
      await page.waitForFunction(() => '__hfEarlyTaps' in globalThis);
      const card = page.locator('.hf-public-card').filter({ hasText: nickname }).first();
      await press(screen, card.getByRole('button', { name: /^查看作品/ }));
      await page.waitForTimeout(300);
      expect(await dialog(page, '作品详情').count()).toBe(0);
      release();
      await visible(dialog(page, '作品详情').getByRole('button', { name: '做同款' }));
      await context.close();
    });
  }

  it('holds nothing when the tap script arrives after the app has taken the page over', async () => {
    const { server, browser } = journey;
    const { nickname } = await authorWorks();
    const { page, context } = await newPage(browser, 'desktop');
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/early-taps.js', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${server.baseUrl}/omnibus`, { waitUntil: 'commit' });
    // The app has rendered (it leaves its mark where the script would).
    await page.waitForFunction(() => '__hfEarlyTaps' in globalThis);
    const arrived = page.waitForResponse('**/early-taps.js');
    release();
    await arrived;
    await page.waitForTimeout(300);
    const card = page.locator('.hf-public-card').filter({ hasText: nickname }).first();
    await card.getByRole('button', { name: /^查看作品/ }).click();
    await visible(dialog(page, '作品详情').getByRole('button', { name: '做同款' }));
    await context.close();
  });

  it("presses nothing on a signed-in reader's page rendered afresh, and the next tap works", async () => {
    const { server } = journey;
    const { nickname } = await authorWorks();
    const reader = await registerInvitedUser(server);
    const { page, context } = await loggedInOnDraw(journey, reader, 'desktop');
    const release = await holdAppScripts(page);
    await page.goto(`${server.baseUrl}/omnibus`, { waitUntil: 'commit' });
    await page.waitForFunction(() => '__hfEarlyTaps' in globalThis);
    const card = page.locator('.hf-public-card').filter({ hasText: nickname }).first();
    await card.getByRole('button', { name: /^查看作品/ }).click();
    release();
    await visible(page.locator('.hf-credits'));
    await visible(card);
    await page.waitForTimeout(1000);
    expect(await dialog(page, '作品详情').count()).toBe(0);
    await card.getByRole('button', { name: /^查看作品/ }).click();
    await visible(dialog(page, '作品详情').getByRole('button', { name: '做同款' }));
    await context.close();
  });
});

describe("/draw arrives as the frame of a signed-in reader's page", () => {
  it('holds the first screen with nothing of any reader in it, its buttons waiting for the app', async () => {
    for (const userAgent of [SCREENS.wechat.userAgent, DESKTOP_USER_AGENT]) {
      const page = await html('/draw', userAgent);
      expect(page.status).toBe(200);
      expect(page.text).toContain('<title>创作 - 画坊</title>');
      expect(meta(page.text, 'robots')).toBe('noindex');
      expect(page.text).toContain('还没有选择模板');
      expect(page.text).toContain('<script src="/draw-frame.js"></script>');
      expect(page.text).toContain('<div id="root" data-hf-frame aria-busy="true">');
      // Rendered afresh by the browser: no data to hydrate, no taps held for a hydration.
      expect(page.text).not.toContain('hf-rendered-state');
      expect(page.text).not.toContain('early-taps.js');
      const root = page.text.slice(page.text.indexOf('<div id="root"'));
      const buttons = root.match(/<button[^>]*>/g) ?? [];
      expect(buttons.length).toBeGreaterThan(0);
      for (const button of buttons) expect(button).toContain('aria-disabled="true"');
    }
  });

  for (const screen of ['wechat', 'desktop'] as ScreenName[]) {
    it(`shows a reader with no template the frame before the app, then their own page in its place (${screen})`, async () => {
      const { server } = journey;
      const reader = await registerInvitedUser(server);
      const { page, context } = await loggedInOnDraw(journey, reader, screen);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const release = await holdAppScripts(page);
      await page.goto(`${server.baseUrl}/draw`, { waitUntil: 'commit' });
      await visible(page.getByText('还没有选择模板'));
      await visible(page.locator('.hf-credits').getByText('剩余 — 点'));
      const choose = page.locator('.hf-empty-panel').getByRole('button', { name: '选择模板' });
      expect(await choose.isDisabled()).toBe(true);
      release();
      await visible(page.locator('.hf-credits').getByText(/剩余 \d+ 点/));
      await choose.click();
      await visible(dialog(page, '选择任务模板'));
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('keeps the frame hidden from a reader with a chosen template, at a width it was not drawn for, and from a guest', async () => {
    const { server, browser } = journey;
    const reader = await registerInvitedUser(server);
    const { page, context } = await loggedInOnDraw(journey, reader, 'desktop');
    // Between the phone's layout and the desktop's (the result canvas stands beside the form from 1200 px).
    await page.setViewportSize({ width: 1100, height: 900 });
    const releaseNarrower = await holdAppScripts(page);
    await page.goto(`${server.baseUrl}/draw`, { waitUntil: 'commit' });
    await page.getByText('还没有选择模板').waitFor({ state: 'attached' });
    expect(await page.getByText('还没有选择模板').isVisible()).toBe(false);
    releaseNarrower();
    await visible(page.locator('.hf-credits').getByText(/剩余 \d+ 点/));
    await page.unrouteAll();
    await page.setViewportSize({ width: 1440, height: 900 });
    await pickTemplate(page, '国风插画', '国潮插画');
    const release = await holdAppScripts(page);
    await page.goto(`${server.baseUrl}/draw`, { waitUntil: 'commit' });
    await page.getByText('还没有选择模板').waitFor({ state: 'attached' });
    expect(await page.locator('html').getAttribute('class')).not.toContain('hf-frame-fits');
    expect(await page.getByText('还没有选择模板').isVisible()).toBe(false);
    release();
    await visible(page.locator('.hf-draw-aside').getByText('模板：国潮插画'));
    expect(await page.getByText('还没有选择模板').count()).toBe(0);
    await context.close();

    const guest = await newPage(browser, 'wechat');
    const releaseGuest = await holdAppScripts(guest.page);
    await guest.page.goto(`${server.baseUrl}/draw`, { waitUntil: 'commit' });
    await guest.page.getByText('还没有选择模板').waitFor({ state: 'attached' });
    expect(await guest.page.getByText('还没有选择模板').isVisible()).toBe(false);
    releaseGuest();
    await visible(loginDialog(guest.page));
    await guest.context.close();
  });
});
