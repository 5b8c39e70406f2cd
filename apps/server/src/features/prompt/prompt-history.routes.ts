import { promptHistoryDeleteBodySchema, promptHistoryPageSchema, promptHistoryQuerySchema } from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { doneAfter, ok } from '../../platform/envelope.js';
import { idParams, reply, replyEmpty } from '../../platform/route-schemas.js';
import type { PromptHistoryService } from './prompt-history.service.js';

const tags = ['提示词'];

export const promptHistoryRoutes: FastifyPluginAsyncZod<{ history: PromptHistoryService }> = async (
  app,
  { history },
) => {
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/prompt/history/page',
    {
      schema: {
        tags,
        summary: '提示词历史',
        querystring: promptHistoryQuerySchema,
        response: reply(promptHistoryPageSchema),
      },
    },
    async (req) => {
      const { current, pageSize, keyword } = req.query;
      return ok(await history.page(currentUser(req).id, current, pageSize, keyword));
    },
  );

  for (const [action, pin] of [
    ['pin', 1],
    ['unpin', 0],
  ] as const) {
    app.get(
      `/prompt/history/${action}/:id`,
      { schema: { tags, summary: pin ? '置顶历史' : '取消置顶', params: idParams, response: replyEmpty } },
      async (req) => doneAfter(history.setPin(currentUser(req).id, req.params.id, pin), pin ? '已置顶' : '已取消置顶'),
    );
  }

  app.delete(
    '/prompt/history',
    { schema: { tags, summary: '删除历史', body: promptHistoryDeleteBodySchema, response: replyEmpty } },
    async (req) => doneAfter(history.remove(currentUser(req).id, req.body.ids), '删除成功'),
  );
};
