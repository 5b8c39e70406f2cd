import { helpBodySchema, helpRequestPageSchema, helpTypeSchema, MSG, pageQuerySchema } from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { doneAfter, ok } from '../../platform/envelope.js';
import { reply, replyEmpty } from '../../platform/route-schemas.js';
import type { HelpService } from './help.service.js';

const tags = ['帮助与反馈'];

export const helpRoutes: FastifyPluginAsyncZod<{ help: HelpService }> = async (app, { help }) => {
  app.get('/help/type', { schema: { tags, summary: '问题类型', response: reply(z.array(helpTypeSchema)) } }, async () =>
    ok(await help.types()),
  );

  app.post(
    '/help',
    { schema: { tags, summary: '提交反馈', body: helpBodySchema, response: replyEmpty }, onRequest: app.requireUser },
    async (req) => doneAfter(help.submit(currentUser(req).id, req.body), MSG.helpSubmitted),
  );

  app.get(
    '/admin/help',
    {
      schema: {
        tags: ['管理后台'],
        summary: '反馈列表',
        querystring: pageQuerySchema,
        response: reply(helpRequestPageSchema),
      },
      onRequest: app.requireAdmin,
    },
    async (req) => ok(await help.page(req.query)),
  );
};
