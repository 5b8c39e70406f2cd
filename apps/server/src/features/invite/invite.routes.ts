import {
  createInviteCodeBodySchema,
  inviteCodeItemSchema,
  inviteCodePageSchema,
  pageQuerySchema,
} from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { ok } from '../../platform/envelope.js';
import { reply } from '../../platform/route-schemas.js';
import type { InviteService } from './invite.service.js';

const tags = ['管理后台'];

export const inviteAdminRoutes: FastifyPluginAsyncZod<{ invites: InviteService }> = async (app, { invites }) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    '/admin/invite/codes',
    { schema: { tags, summary: '邀请码列表', querystring: pageQuerySchema, response: reply(inviteCodePageSchema) } },
    async (req) => ok(await invites.page(req.query)),
  );

  app.post(
    '/admin/invite/codes',
    {
      schema: { tags, summary: '新建邀请码', body: createInviteCodeBodySchema, response: reply(inviteCodeItemSchema) },
    },
    async (req) => ok(await invites.create(req.body, currentUser(req).id), '邀请码已创建'),
  );
};
