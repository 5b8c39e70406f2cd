import { BizCode, envelopeSchema, healthSchema } from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { HealthService } from './health.service.js';

const healthReply = envelopeSchema(healthSchema);

export const healthRoutes: FastifyPluginAsyncZod<{ health: HealthService }> = async (app, { health }) => {
  app.get(
    '/health',
    { schema: { tags: ['运维'], summary: '健康检查', response: { 200: healthReply, 503: healthReply } } },
    async (req, reply) => {
      // What failed, on which database, and the queue are for admins; anyone else learns only the status.
      // With the database down the token cannot be checked: the caller then counts as anonymous.
      const caller = await app.identify(req).catch(() => null);
      const isAdmin = caller?.isAdmin === true;
      const report = await health.check(isAdmin);
      const data = isAdmin ? report : { status: report.status };
      // Degraded (Redis away) stays 200: every API process shares that Redis, so taking this one out of a load
      // balancer would not help, and the pages that need no Redis still serve.
      if (report.status === 'ok') return { code: 0, msg: 'ok', data };
      if (report.status === 'degraded') return { code: 0, msg: '生成队列暂时无法连接，其他功能正常', data };
      return reply.status(503).send({ code: BizCode.FAIL, msg: '服务暂不可用', data });
    },
  );
};
