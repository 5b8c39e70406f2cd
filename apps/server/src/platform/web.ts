import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { MSG } from '@huafang/contracts';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built web app beside /api. Unknown /api paths answer the envelope;
 * any other GET answers index.html so the SPA's router handles deep links.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const hasWeb = existsSync(path.join(distDir, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, { root: distDir, wildcard: false, index: false });
    app.get('/', (_req, reply) => reply.sendFile('index.html'));
  }
  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split('?')[0] ?? '';
    if (pathname === '/api' || pathname.startsWith('/api/') || req.method !== 'GET') {
      return reply.status(404).send({ code: 404, msg: MSG.routeNotFound, data: null });
    }
    if (!hasWeb) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('画坊前端尚未构建：请先运行 npm run build（npm start 会自动构建）。');
    }
    return reply.type('text/html; charset=utf-8').sendFile('index.html');
  });
}
