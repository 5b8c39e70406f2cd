import {
  moderationDecideBodySchema,
  moderationHistoryPageSchema,
  moderationHistoryQuerySchema,
  moderationQueuePageSchema,
  moderationQueueQuerySchema,
  workReportBodySchema,
} from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { done, doneAfter, ok } from '../../platform/envelope.js';
import { reply, replyEmpty } from '../../platform/route-schemas.js';
import { originOf } from '../audit/audit-recorder.js';
import { REPORT_MESSAGES, type WorkModerationService } from './work-moderation.service.js';

type Deps = { moderation: WorkModerationService };

/** 举报: a logged-in user reports a public work (docs/compliance.md § 内容审核). */
export const workReportRoutes: FastifyPluginAsyncZod<Deps> = async (app, { moderation }) => {
  app.addHook('onRequest', app.requireUser);

  app.post(
    '/works/report',
    { schema: { tags: ['作品'], summary: '举报灵感广场的作品', body: workReportBodySchema, response: replyEmpty } },
    async (req) => doneAfter(moderation.report(currentUser(req).id, req.body, originOf(req)), REPORT_MESSAGES.done),
  );
};

/** 作品审核 › 待审核 and 审核记录 (admins only). */
export const workModerationAdminRoutes: FastifyPluginAsyncZod<Deps> = async (app, { moderation }) => {
  app.addHook('onRequest', app.requireAdmin);
  const tags = ['管理后台'];

  app.get(
    '/admin/works/moderation',
    {
      schema: {
        tags,
        summary: '待审核作品（内容审核标记与用户举报）',
        querystring: moderationQueueQuerySchema,
        response: reply(moderationQueuePageSchema),
      },
    },
    async (req) => ok(await moderation.queue(req.query.kind, req.query.current, req.query.pageSize)),
  );

  app.post(
    '/admin/works/moderation/decide',
    {
      schema: { tags, summary: '审核决定：通过或下架', body: moderationDecideBodySchema, response: replyEmpty },
    },
    async (req) => done(await moderation.decide(currentUser(req).id, req.body)),
  );

  app.get(
    '/admin/works/moderation/history',
    {
      schema: {
        tags,
        summary: '审核记录',
        querystring: moderationHistoryQuerySchema,
        response: reply(moderationHistoryPageSchema),
      },
    },
    async (req) => ok(await moderation.history(req.query.current, req.query.pageSize, req.query.workId)),
  );
};
