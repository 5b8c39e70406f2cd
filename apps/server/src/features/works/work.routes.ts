import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../platform/errors.js';
import type { Storage } from '../../platform/storage/storage.js';
import type { WorkRepository } from './work.repository.js';

const params = z.object({ workId: z.string().max(64) });

/**
 * A work's original and thumbnail. Work ids are random and unguessable (ARCHITECTURE § Contracts), so an
 * <img> can load them without a bearer header, as it does uploaded files.
 */
export const workImageRoutes: FastifyPluginAsyncZod<{ works: WorkRepository; storage: Storage }> = async (
  app,
  { works, storage },
) => {
  for (const [kind, mime] of [
    ['image', 'image/png'],
    ['thumb', 'image/webp'],
  ] as const) {
    app.get(
      `/works/${kind}/:workId`,
      { schema: { tags: ['作品'], summary: kind === 'image' ? '作品原图（PNG）' : '作品缩略图（WebP）', params } },
      async (req, reply) => {
        const keys = await works.keysOf(req.params.workId);
        const stream = keys ? await storage.read(kind === 'image' ? keys.image_key : keys.thumb_key) : null;
        if (!stream) throw notFound('作品不存在');
        return reply
          .header('content-type', mime)
          .header('cache-control', 'private, max-age=604800, immutable')
          .send(stream);
      },
    );
  }
};
