import { type Dashboard, dashboardQuerySchema, dashboardSchema } from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../platform/db/database.js';
import { ok } from '../../platform/envelope.js';
import { reply } from '../../platform/route-schemas.js';
import type { BackendPool } from '../backends/backend-pool.js';
import type { JobQueue } from '../generate/job-queue.js';
import { DashboardRepository } from './dashboard.repository.js';

const DAY_MS = 86_400_000;

/** 数据看板: generations and active users per day, totals, the queue now and the backends. */
export const dashboardRoutes: FastifyPluginAsyncZod<{
  db: Database;
  queue: JobQueue;
  pool: BackendPool;
}> = async (app, { db, queue, pool }) => {
  const repo = new DashboardRepository(db);

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
    async (req) => {
      const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
      const first = today - (req.query.days - 1) * DAY_MS;
      const [rows, totals] = await Promise.all([repo.days(new Date(first).toISOString()), repo.totals()]);
      const byDate = new Map(rows.map((row) => [row.date, row]));
      // Every day of the window, the quiet ones as zeros, oldest first.
      const days = Array.from({ length: req.query.days }, (_, i) => {
        const date = new Date(first + i * DAY_MS).toISOString().slice(0, 10);
        return byDate.get(date) ?? { date, generations: 0, images: 0, activeUsers: 0 };
      });
      const backends = (await pool.list()).map((b) => ({ name: b.name, healthy: b.healthy, busy: b.busy }));
      return ok({ days, totals, queue: await queue.stats(), backends } satisfies Dashboard);
    },
  );
};
