import { dashboardQuerySchema, dashboardSchema } from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../platform/envelope.js';
import { reply } from '../../platform/route-schemas.js';
import type { DashboardService } from './dashboard.service.js';

/** 数据看板: generations and active users per day, totals, the queue now and the backends. */
export const dashboardRoutes: FastifyPluginAsyncZod<{ dashboard: DashboardService }> = async (app, { dashboard }) => {
  app.get(
    '/admin/dashboard',
    {
      schema: {
        tags: ['管理后台'],
        summary: '数据看板',
        querystring: dashboardQuerySchema,
        response: reply(dashboardSchema),
      },
      onRequest: app.requireAdmin,
    },
    async (req) => ok(await dashboard.dashboard(req.query.days)),
  );
};
