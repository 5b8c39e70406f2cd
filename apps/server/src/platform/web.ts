import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { MSG } from '@huafang/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { styleNonce } from './security-headers.js';

/** Vite names every file under assets/ by a hash of its content, so a browser may keep them for good. */
const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';
/** Everything else (the page, favicon.svg, zod-jitless.js, early-taps.js) is checked with the server on every use. */
const REVALIDATE = 'no-cache';
/** Files a page loads by name: a missing one is a 404, never the page (a script tag would run HTML). */
const STATIC_FILE =
  /^\/assets\/|\.(?:m?js|css|map|json|txt|xml|webmanifest|wasm|png|jpe?g|gif|webp|avif|svg|ico|woff2?|ttf|otf|br|gz)$/i;

/** The public pages the web build renders on the server (apps/web/src/ssr/entry-server.tsx). */
const RENDERED_PAGES = ['/', '/omnibus', '/work/:id', '/draw'];

interface RenderRequest {
  url: string;
  origin: string;
  nonce: string;
  userAgent: string;
  get: (url: string) => Promise<{ status: number; body: { code: number; msg: string; data: unknown } }>;
}
interface Renderer {
  render(request: RenderRequest): Promise<{ status: 200; html: string } | { status: 404 } | null>;
}

/**
 * The web build's renderer of public pages, from apps/web/dist-ssr beside dist; null when it was not built (the
 * pages are then the app shell, as every other page is).
 */
async function loadRenderer(distDir: string): Promise<Renderer | null> {
  const entry = path.join(distDir, '..', 'dist-ssr', 'entry-server.js');
  if (!existsSync(entry)) return null;
  const module = (await import(pathToFileURL(entry).href)) as { createRenderer: (dir: string) => Renderer };
  return module.createRenderer(distDir);
}

/**
 * Serves the built web app beside /api. Unknown /api paths and missing static files answer a 404 envelope;
 * any other GET answers index.html so the SPA's router handles deep links. `/`, `/omnibus` and `/work/:id` arrive
 * rendered for a guest, with their first screen's data (a work that is not public answers 404); `/draw` arrives as
 * the frame of a signed-in reader's page, which the browser renders over (apps/web/src/ssr/signed-in-frame.ts).
 * Text assets go out as the brotli or gzip files the web build wrote beside them (apps/web/build/plugins.ts).
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  const page = existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : null;
  const renderer = page === null ? null : await loadRenderer(distDir);
  if (page !== null) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        const hashed = path.relative(distDir, filePath).split(path.sep)[0] === 'assets';
        reply.header('cache-control', hashed ? HASHED_ASSET_CACHE : REVALIDATE);
      },
      // The page itself always goes through sendPage, which gives it this answer's nonce.
      allowedPath: (pathname) => pathname !== '/index.html',
    });
    if (renderer) {
      for (const route of RENDERED_PAGES) {
        app.get(route, (req, reply) => sendRendered(app, renderer, req, reply, page));
      }
    } else {
      app.get('/', (req, reply) => sendPage(req, reply, page));
    }
  }
  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split('?')[0] ?? '';
    if (pathname === '/api' || pathname.startsWith('/api/') || req.method !== 'GET') {
      return reply.status(404).send({ code: 404, msg: MSG.routeNotFound, data: null });
    }
    if (STATIC_FILE.test(pathname)) return reply.status(404).send({ code: 404, msg: '文件不存在', data: null });
    if (page === null) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('画坊前端尚未构建：请先运行 npm run build（npm start 会自动构建）。');
    }
    return sendPage(req, reply, page);
  });
}

/** The encodings a request accepts, without those it refuses with q=0. */
function acceptedEncodings(req: FastifyRequest): Set<string> {
  const accepted = new Set<string>();
  for (const part of String(req.headers['accept-encoding'] ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (name && !params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param))) accepted.add(name);
  }
  return accepted;
}

/**
 * The page with this answer's style nonce, where the web app reads it for antd (see apps/web/src/csp.ts).
 * `no-cache` without ETag or Last-Modified: a browser must fetch it again rather than revalidate a copy whose
 * nonce no longer matches the new answer's CSP. It is compressed per answer (a few KB, so a fast setting is enough).
 */
function sendPage(req: FastifyRequest, reply: FastifyReply, page: string) {
  const meta = `<meta property="csp-nonce" nonce="${styleNonce(reply)}" />`;
  return sendHtml(req, reply, page.replace('</head>', `  ${meta}\n  </head>`));
}

/**
 * A public page rendered for a guest, or the frame of /draw (the same for every signed-in reader). Its data comes
 * from the public API through the app itself, as the browser would ask for it (same rules, same rate limit for the
 * reader's address), so nothing a guest may not read gets in.
 * Should rendering fail, the reader still gets the app shell, which loads the page itself.
 */
async function sendRendered(
  app: FastifyInstance,
  renderer: Renderer,
  req: FastifyRequest,
  reply: FastifyReply,
  page: string,
) {
  const nonce = styleNonce(reply);
  try {
    const rendered = await renderer.render({
      url: req.url,
      origin: `${req.protocol}://${req.host}`,
      nonce,
      userAgent: String(req.headers['user-agent'] ?? ''),
      get: async (url) => {
        const answer = await app.inject({
          method: 'GET',
          url,
          // The reader's address and browser: a view counts once per guest, as when the browser asks itself.
          headers: { accept: 'application/json', 'user-agent': String(req.headers['user-agent'] ?? '') },
          remoteAddress: req.ip,
        });
        return { status: answer.statusCode, body: answer.json() };
      },
    });
    if (rendered?.status === 200) return sendHtml(req, reply, rendered.html);
    if (rendered?.status === 404) reply.status(404);
  } catch (error) {
    req.log.error({ err: error }, 'rendering a public page failed; sending the app shell');
  }
  const meta = `<meta property="csp-nonce" nonce="${nonce}" />`;
  return sendHtml(req, reply, page.replace('</head>', `  ${meta}\n  </head>`));
}

function sendHtml(req: FastifyRequest, reply: FastifyReply, page: string) {
  const html = Buffer.from(page);
  reply.type('text/html; charset=utf-8').header('cache-control', REVALIDATE).header('vary', 'accept-encoding');
  const accepted = acceptedEncodings(req);
  if (accepted.has('br')) {
    const body = brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
    return reply.header('content-encoding', 'br').send(body);
  }
  if (accepted.has('gzip')) return reply.header('content-encoding', 'gzip').send(gzipSync(html));
  return reply.send(html);
}
