import { healthSchema } from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DbKind } from '../../platform/db/database.js';
import { reply } from '../../platform/route-schemas.js';

export const healthRoutes: FastifyPluginAsyncZod<{ db: DbKind }> = async (app, { db }) => {
  app.get('/health', { schema: { tags: ['运维'], summary: '健康检查', response: reply(healthSchema) } }, async () => ({
    code: 0,
    msg: 'ok',
    data: { status: 'ok' as const, db },
  }));
};
