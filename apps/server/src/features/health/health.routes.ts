import { BizCode, envelopeSchema, healthSchema } from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { HealthService } from './health.service.js';

const healthReply = envelopeSchema(healthSchema);

export const healthRoutes: FastifyPluginAsyncZod<{ health: HealthService }> = async (app, { health }) => {
  app.get(
    '/health',
    { schema: { tags: ['运维'], summary: '健康检查', response: { 200: healthReply, 503: healthReply } } },
    async (req, reply) => {
      const report = await health.check();
      // What failed and on which database is for admins; anyone else learns only up or down.
      // With the database down the token cannot be checked: the caller then counts as anonymous.
      const caller = await app.identify(req).catch(() => null);
      const isAdmin = caller?.isAdmin === true;
      const data = isAdmin ? report : { status: report.status };
      if (report.status === 'ok') return { code: 0, msg: 'ok', data };
      return reply.status(503).send({ code: BizCode.FAIL, msg: '服务暂不可用', data });
    },
  );
};
