import { auditFilterSchema, auditLogPageSchema, auditLogQuerySchema } from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { ok } from '../../platform/envelope.js';
import { reply } from '../../platform/route-schemas.js';
import { datedFileName } from '../../platform/time-zone.js';
import type { AuditService } from './audit.service.js';
import { originOf } from './audit-recorder.js';

const tags = ['管理后台'];

/** 审计日志 (admins only): docs/compliance.md § 日志. */
export const auditRoutes: FastifyPluginAsyncZod<{ audit: AuditService }> = async (app, { audit }) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    '/admin/audit-log',
    {
      schema: {
        tags,
        summary: '审计日志（按日期、用户、手机号、操作、IP、API 密钥筛选）',
        querystring: auditLogQuerySchema,
        response: reply(auditLogPageSchema),
      },
    },
    async (req) => ok(await audit.page(req.query)),
  );

  app.get(
    '/admin/audit-log/export',
    {
      schema: {
        tags,
        summary: '导出审计日志（CSV，UTF-8 带 BOM，最多 100000 条）',
        querystring: auditFilterSchema,
        produces: ['text/csv'],
      },
    },
    async (req, res) => {
      const csv = await audit.exportCsv(currentUser(req).id, originOf(req), req.query);
      const name = datedFileName('audit-log', 'csv', app.displayTimeZone);
      return res
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(csv);
    },
  );
};
