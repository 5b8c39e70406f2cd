import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import type { FeaturedTemplate, Page, PublicWorkDetail, PublicWorkItem } from '@huafang/contracts';
import { dehydrate, QueryClient } from '@tanstack/react-query';
import { theme } from 'antd';
import { renderToPipeableStream } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProviders } from '../App';
import { RenderedWidthContext } from '../common/use-screen';
import { CARD_SIZES, originalSrcSet, thumbSrcSet } from '../features/gallery/thumb-srcset';
import { ORIGINAL_SIZES } from '../features/gallery/WorkOriginal';
import { LATEST_COUNT } from '../pages/home/LatestWorks';
import { OMNIBUS_FIRST_SCREEN } from '../pages/omnibus/OmnibusPage';
import { routes } from '../routes';
import { taskQueries } from '../services/task';
import { OMNIBUS_PAGE_SIZE, worksQueries } from '../services/works';
import { theme as appTheme, THEME_CLASS } from '../theme';
import { RENDERED_STATE_ID, serializeRenderedState } from './rendered-state';
import { FRAME_ATTRIBUTE, FRAME_FITS_CLASS, SignedInFrameContext } from './signed-in-frame';

/**
 * The pages rendered on the server (docs/web.md § 首屏): `/`, `/omnibus` and `/work/:id` for a guest, and the frame of
 * `/draw` that any signed-in reader's page starts from (signed-in-frame.ts). Built by `vite build --ssr` into
 * apps/web/dist-ssr and loaded by the server (apps/server/src/platform/web.ts), which asks it for every GET of these
 * paths and serves the plain app shell for every other one.
 */

/** What the server answers a GET of a public API path, as a guest would get it. */
export type ApiGet = (url: string) => Promise<{ status: number; body: { code: number; msg: string; data: unknown } }>;

export interface RenderRequest {
  /** The path and query the browser asked for. */
  url: string;
  /** The site's origin (https://huafang.example.com), for the absolute addresses a share card needs. */
  origin: string;
  /** This answer's style nonce (its CSP allows inline <style> with it). */
  nonce: string;
  /** The browser's User-Agent: a phone's page is laid out for a phone before any script runs. */
  userAgent: string;
  get: ApiGet;
}

/** A rendered page, or a 404 for a work that is not public (the server sends the plain shell with it). */
export type RenderedPage = { status: 200; html: string } | { status: 404 };

interface PageData {
  title: string;
  description: string;
  /** Open Graph and Twitter card tags beyond title and description. */
  image?: { url: string; width: number; height: number; alt: string };
  type: 'website' | 'article';
  /** The modules of the page (Vite's manifest keys) whose style sheets the first screen needs (inlined). */
  modules: string[];
  /** The first screen's pictures, preloaded first: `<link rel=preload>` attributes. */
  images?: { srcset: string; sizes: string }[];
  /** Which page it is, for the style cache. */
  kind: 'home' | 'omnibus' | 'work' | 'draw';
  /**
   * The frame of a signed-in page: drawn for any signed-in reader (signed-in-frame.ts), rendered afresh by the
   * browser rather than hydrated, and hidden before it is painted where it would not be this reader's page.
   */
  frame?: { guard: string };
}

const SITE_DESCRIPTION = '画坊：用一句中文描述你想要的画面，AI 帮你把它画出来。精选模板、灵感广场，手机上也能创作。';
const MAIN_LAYOUT = 'src/layouts/MainLayout.tsx';
const DRAW_MODULES = ['src/layouts/DrawLayout.tsx', 'src/pages/draw/DrawPage.tsx'];
/** Most readers come from a link shared in WeChat on a phone; anything that does not say it is one gets the desktop. */
const PHONE_BROWSER = /Mobi|Android|iPhone|iPod|MicroMessenger/i;
const PHONE_WIDTH = 390;
const DESKTOP_WIDTH = 1440;

class NotPublic extends Error {}
/** The API refused the reader (too many requests, a malformed address): the app shell, nothing to log. */
class NotRendered extends Error {}

async function data<T>(get: ApiGet, url: string): Promise<T> {
  const answer = await get(url);
  if (answer.status === 404 || answer.body.code === 404) throw new NotPublic(url);
  if (answer.status >= 400 && answer.status < 500) throw new NotRendered(url);
  if (answer.body.code !== 0) throw new Error(`${url}: ${answer.status} ${answer.body.msg}`);
  return answer.body.data as T;
}

/** Fills the query cache with what the page's first screen reads, under the keys the page's own queries use. */
async function loadPage(pathname: string, client: QueryClient, request: RenderRequest): Promise<PageData | null> {
  const { get } = request;
  if (pathname === '/') {
    await Promise.all([
      client.prefetchQuery({
        ...taskQueries.featured(),
        queryFn: () => data<FeaturedTemplate[]>(get, '/api/task/template/featured'),
      }),
      client.prefetchQuery({
        ...worksQueries.latest(LATEST_COUNT),
        queryFn: () =>
          data<Page<PublicWorkItem>>(get, `/api/works/public/list?current=1&pageSize=${LATEST_COUNT}&order=latest`),
      }),
    ]);
    return {
      title: '画坊',
      description: SITE_DESCRIPTION,
      type: 'website',
      kind: 'home',
      modules: ['src/pages/home/HomePage.tsx'],
    };
  }
  if (pathname === '/omnibus') {
    const options = worksQueries.public('latest', undefined);
    await client.prefetchInfiniteQuery({
      ...options,
      queryFn: ({ pageParam }) =>
        data<Page<PublicWorkItem>>(
          get,
          `/api/works/public?current=${pageParam}&pageSize=${OMNIBUS_PAGE_SIZE}&order=latest`,
        ),
    });
    const first = client.getQueryData(options.queryKey)?.pages[0]?.list.slice(0, OMNIBUS_FIRST_SCREEN) ?? [];
    return {
      title: '灵感广场 - 画坊',
      description: '画坊灵感广场：社区创作者公开的 AI 绘画作品，找灵感、做同款。',
      type: 'website',
      kind: 'omnibus',
      images: first.map((work) => ({ srcset: thumbSrcSet(work), sizes: CARD_SIZES })),
      modules: [MAIN_LAYOUT, 'src/pages/omnibus/OmnibusPage.tsx'],
    };
  }
  if (pathname === '/draw') {
    return {
      title: '创作 - 画坊',
      description: SITE_DESCRIPTION,
      type: 'website',
      kind: 'draw',
      modules: DRAW_MODULES,
      frame: { guard: '/draw-frame.js' },
    };
  }
  const shared = /^\/work\/([^/]+)$/.exec(pathname);
  if (shared?.[1]) {
    let id: string;
    try {
      id = decodeURIComponent(shared[1]);
    } catch {
      throw new NotPublic(pathname);
    }
    const work = await data<PublicWorkDetail>(get, `/api/works/public/detail?id=${encodeURIComponent(id)}`);
    client.setQueryData(worksQueries.shared(id).queryKey, work);
    const name = work.templateName || '自由创作';
    return {
      // As SharedWorkPage names the tab, so the card and the tab agree.
      title: `${work.author.nickname}的作品「${name}」 - 画坊`,
      // Never the prompt: the card would carry it even where the author hid it from the page.
      description: `${work.author.nickname}在画坊用 AI 创作的作品「${name}」，打开看看，一键做同款。`,
      image: { url: new URL(work.url, request.origin).href, width: work.width, height: work.height, alt: name },
      type: 'article',
      kind: 'work',
      images: [{ srcset: originalSrcSet(work), sizes: ORIGINAL_SIZES }],
      modules: [MAIN_LAYOUT, 'src/pages/work/SharedWorkPage.tsx'],
    };
  }
  return null;
}

const breakpoints = theme.getDesignToken(appTheme);

/** What main.tsx and common/use-screen-classes.ts put on <html> in the browser, for the width rendered for. */
function htmlClasses(width: number): string {
  const classes = [THEME_CLASS];
  if (width < breakpoints.screenMD) classes.push('hf-phone');
  if (width < breakpoints.screenLG) classes.push('hf-narrow');
  return classes.join(' ');
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function headTags(page: PageData, url: string): string {
  const meta = (attr: 'name' | 'property', key: string, value: string | number) =>
    `<meta ${attr}="${key}" content="${escapeHtml(String(value))}" />`;
  const tags = [
    `<title>${escapeHtml(page.title)}</title>`,
    meta('name', 'description', page.description),
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    meta('property', 'og:site_name', '画坊'),
    meta('property', 'og:title', page.title),
    meta('property', 'og:description', page.description),
    meta('property', 'og:url', url),
    meta('property', 'og:type', page.type),
    meta('property', 'og:locale', 'zh_CN'),
    meta('name', 'twitter:card', page.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', page.title),
    meta('name', 'twitter:description', page.description),
  ];
  if (page.image) {
    tags.push(
      meta('property', 'og:image', page.image.url),
      meta('property', 'og:image:width', page.image.width),
      meta('property', 'og:image:height', page.image.height),
      meta('property', 'og:image:alt', page.image.alt),
      meta('name', 'twitter:image', page.image.url),
    );
  }
  return tags.join('\n    ');
}

/**
 * What a frame's head adds: its guard, a blocking script that decides before the first paint whether the frame is
 * this reader's page (public/draw-frame.js), the rule that keeps it hidden unless so, and no place in search results.
 */
function frameHead(frame: NonNullable<PageData['frame']>, nonce: string): string[] {
  return [
    `<script src="${frame.guard}"></script>`,
    `<style nonce="${nonce}">html:not(.${FRAME_FITS_CLASS}) #root[${FRAME_ATTRIBUTE}] { visibility: hidden; }</style>`,
    '<meta name="robots" content="noindex" />',
  ];
}

function renderToHtml(element: React.ReactNode): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        html += chunk.toString('utf8');
        done();
      },
      final(done) {
        resolve(html);
        done();
      },
    });
    // The whole page at once (a crawler and the first paint both want it complete, and it is small).
    const stream = renderToPipeableStream(element, {
      onAllReady: () => stream.pipe(sink),
      onShellError: reject,
      onError: (error) => reject(error),
    });
  });
}

/**
 * antd's styles of a page, kept from one render to the next: working out its tokens and styles anew took most of a
 * render. A page's cache only grows by the variants of that page (empty, a list, a 404), so it stays small, and
 * what it adds beyond one answer's needs is a few rules of that page's own components.
 */
const styleCaches = new Map<string, { cache: ReturnType<typeof createCache>; extract: () => string }>();

function styleCache(key: string) {
  let entry = styleCaches.get(key);
  if (!entry) {
    const cache = createCache();
    let extracted = { size: -1, text: '' };
    const extract = () => {
      if (extracted.size !== cache.cache.size) extracted = { size: cache.cache.size, text: extractStyle(cache) };
      return extracted.text;
    };
    entry = { cache, extract };
    styleCaches.set(key, entry);
  }
  return entry;
}

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

/**
 * Reads the built app once: the page template, Vite's manifest and the style sheets the public pages inline, so a
 * render reads no file. `distDir` is apps/web/dist.
 */
export function createRenderer(distDir: string) {
  const template = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const manifest = JSON.parse(readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const cssText = new Map<string, string>();
  const css = (file: string) => {
    let text = cssText.get(file);
    if (text === undefined) {
      text = readFileSync(path.join(distDir, file), 'utf8');
      cssText.set(file, text);
    }
    return text;
  };
  /** A module's chunk and the chunks it imports, recursively: their scripts and their style sheets. */
  function assetsOf(modules: string[]) {
    const scripts = new Set<string>();
    const sheets = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || scripts.has(chunk.file)) return;
      scripts.add(chunk.file);
      for (const imported of chunk.imports ?? []) visit(imported);
      for (const sheet of chunk.css ?? []) sheets.add(sheet);
    };
    for (const key of modules) visit(key);
    return { scripts: [...scripts], sheets: [...sheets] };
  }
  // The template loads the entry and preloads what it imports; a page adds its own chunks' sheets (and, for a
  // frame, their scripts).
  const entry = assetsOf(['index.html']);
  const pageAssets = (modules: string[]) => {
    const page = assetsOf(modules);
    return {
      scripts: page.scripts.filter((file) => !entry.scripts.includes(file)),
      sheets: [...new Set([...entry.sheets, ...page.sheets])],
    };
  };

  /** Each frame's body by page and layout width. */
  const frames = new Map<string, string>();

  async function render(request: RenderRequest): Promise<RenderedPage | null> {
    const url = new URL(request.url, request.origin);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
    let page: PageData | null;
    try {
      page = await loadPage(url.pathname, client, request);
    } catch (error) {
      // A work that is hidden, private or gone: the plain shell with a 404, whose page says 作品不存在或未公开.
      if (error instanceof NotPublic) return { status: 404 };
      if (error instanceof NotRendered) return null;
      throw error;
    }
    if (!page) return null;

    const width = PHONE_BROWSER.test(request.userAgent) ? PHONE_WIDTH : DESKTOP_WIDTH;
    const layout = `${page.kind}:${width}`;
    const styles = styleCache(layout);
    let body = page.frame ? frames.get(layout) : undefined;
    if (body === undefined) {
      const handler = createStaticHandler(routes);
      const context = await handler.query(new Request(url.href));
      if (context instanceof Response) return null;
      const router = createStaticRouter(handler.dataRoutes, context);
      const rendered = await renderToHtml(
        <StyleProvider cache={styles.cache}>
          <RenderedWidthContext value={width}>
            <SignedInFrameContext value={page.frame !== undefined}>
              <AppProviders client={client}>
                <StaticRouterProvider router={router} context={context} hydrate={false} />
              </AppProviders>
            </SignedInFrameContext>
          </RenderedWidthContext>
        </StyleProvider>,
      );
      // A frame's buttons do nothing until the app replaces them: said so to assistive technology (and to a test
      // driver, which waits for the live control rather than tapping the frame's).
      body = page.frame ? rendered.replaceAll('<button', '<button aria-disabled="true"') : rendered;
      // The same for every reader of a layout: rendered once.
      if (page.frame) frames.set(layout, body);
    }
    const nonce = escapeHtml(request.nonce);
    // No <link rel=modulepreload> of a hydrated page's chunks (/omnibus imports ~60): each preload is a request the
    // main thread issues before the first paint, and on a phone they took longer than parsing the page. The chunks
    // come in one wave when the entry hydrates the page (loadMatchedRoutes), while the HTML already shows it.
    const { sheets, scripts } = pageAssets(page.modules);
    const antdStyles = styles.extract().replaceAll('<style', `<style nonce="${nonce}"`);
    const head = [
      ...(page.frame ? frameHead(page.frame, nonce) : []),
      headTags(page, `${request.origin}${url.pathname}`),
      ...(page.images ?? []).map(
        (image) =>
          `<link rel="preload" as="image" imagesrcset="${escapeHtml(image.srcset)}" imagesizes="${escapeHtml(image.sizes)}" fetchpriority="high" />`,
      ),
      antdStyles,
      `<style nonce="${nonce}">${sheets.map(css).join('\n')}</style>`,
      // A frame's page is rendered afresh by the browser, which needs its chunks before it can replace the frame.
      ...(page.frame ? scripts.map((file) => `<link rel="modulepreload" href="/${file}" />`) : []),
    ].join('\n    ');
    // A frame is rendered afresh, not hydrated: no data to hydrate from, and no taps to hold for a hydration.
    const state = page.frame
      ? ''
      : `\n    <script type="application/json" id="${RENDERED_STATE_ID}">${serializeRenderedState({ queries: dehydrate(client), width })}</script>`;
    const earlyTaps = page.frame ? '' : '\n    <script async src="/early-taps.js"></script>';
    // Replacements are functions: in a string, `$&`, `$'` and `$$` that a nickname or a prompt may hold would be
    // read as patterns and paste parts of the page into the data block.
    let html = template
      .replace('</head>', () => `  <meta property="csp-nonce" nonce="${nonce}" />${earlyTaps}\n  </head>`)
      .replace('<html lang="zh-CN">', () => `<html lang="zh-CN" class="${htmlClasses(width)}">`)
      .replace(/<title>[^<]*<\/title>/, () => head)
      .replace('<div id="root"></div>', () =>
        page.frame
          ? `<div id="root" ${FRAME_ATTRIBUTE} aria-busy="true">${body}</div>`
          : `<div id="root">${body}</div>${state}`,
      );
    // The sheets are inline; their files still come, after the content, for the pages of the app that follow (and,
    // for a frame, for its own page: Vite's loader waits for a chunk's sheets unless the page links them).
    const linked = page.frame ? sheets : entry.sheets;
    for (const sheet of linked) {
      const link = `<link rel="stylesheet" crossorigin href="/${sheet}">`;
      html = html.replace(link, '').replace('</body>', () => `  ${link}\n  </body>`);
    }
    return { status: 200, html };
  }

  return { render };
}
