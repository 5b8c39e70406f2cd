import { noticePageSchema, noticeQuerySchema, noticeReadBodySchema, noticeUnreadSchema } from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { doneAfter, ok } from '../../platform/envelope.js';
import { reply, replyEmpty } from '../../platform/route-schemas.js';
import type { NoticeService } from './notice.service.js';

const tags = ['通知'];

/** 通知: the logged-in user's own notices (docs/community.md). */
export const noticeRoutes: FastifyPluginAsyncZod<{ notices: NoticeService }> = async (app, { notices }) => {
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/notices',
    { schema: { tags, summary: '我的通知', querystring: noticeQuerySchema, response: reply(noticePageSchema) } },
    async (req) => ok(await notices.page(currentUser(req).id, req.query)),
  );

  app.get(
    '/notices/unread',
    { schema: { tags, summary: '未读通知数', response: reply(noticeUnreadSchema) } },
    async (req) => ok({ unread: await notices.unread(currentUser(req).id) }),
  );

  app.post(
    '/notices/read',
    { schema: { tags, summary: '标记通知为已读', body: noticeReadBodySchema, response: replyEmpty } },
    async (req) => doneAfter(notices.markRead(currentUser(req).id, req.body.ids), '已标记为已读'),
  );
};
