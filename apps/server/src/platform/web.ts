import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { MSG } from '@huafang/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { styleNonce } from './security-headers.js';

/**
 * Serves the built web app beside /api. Unknown /api paths answer the envelope;
 * any other GET answers index.html so the SPA's router handles deep links.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  const page = existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : null;
  if (page !== null) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      // The page itself always goes through sendPage, which gives it this answer's nonce.
      allowedPath: (pathname) => pathname !== '/index.html',
    });
    app.get('/', (_req, reply) => sendPage(reply, page));
  }
  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split('?')[0] ?? '';
    if (pathname === '/api' || pathname.startsWith('/api/') || req.method !== 'GET') {
      return reply.status(404).send({ code: 404, msg: MSG.routeNotFound, data: null });
    }
    if (page === null) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('画坊前端尚未构建：请先运行 npm run build（npm start 会自动构建）。');
    }
    return sendPage(reply, page);
  });
}

/** The page with this answer's style nonce, where the web app reads it for antd (see apps/web/src/csp.ts). */
function sendPage(reply: FastifyReply, page: string) {
  const meta = `<meta property="csp-nonce" nonce="${styleNonce(reply)}" />`;
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(page.replace('</head>', `  ${meta}\n  </head>`));
}
