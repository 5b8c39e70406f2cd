import {
  adminUserPageSchema,
  adminUserQuerySchema,
  creditGrantBodySchema,
  creditGrantResultSchema,
  userDisabledBodySchema,
  userDisabledResultSchema,
} from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { ok } from '../../platform/envelope.js';
import { reply } from '../../platform/route-schemas.js';
import { originOf } from '../audit/audit-recorder.js';
import type { UserService } from '../user/user.service.js';
import type { CreditService } from './credit.service.js';

const tags = ['管理后台'];

/** 用户管理: find users (account, nickname or mobile), grant them credits, stop or restore their accounts. */
export const adminUserRoutes: FastifyPluginAsyncZod<{
  credits: CreditService;
  users: UserService;
}> = async (app, { credits, users }) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    '/admin/users',
    { schema: { tags, summary: '用户列表', querystring: adminUserQuerySchema, response: reply(adminUserPageSchema) } },
    async (req) => ok(await users.adminPage(req.query)),
  );

  app.post(
    '/admin/users/credits',
    {
      schema: { tags, summary: '调整用户算力', body: creditGrantBodySchema, response: reply(creditGrantResultSchema) },
    },
    async (req) => {
      const { userId, amount, remark } = req.body;
      const balance = await credits.grant(currentUser(req).id, userId, amount, originOf(req), remark);
      return ok({ userId, credits: balance }, '设置成功');
    },
  );

  app.post(
    '/admin/users/disabled',
    {
      schema: {
        tags,
        summary: '停用或启用账号',
        body: userDisabledBodySchema,
        response: reply(userDisabledResultSchema),
      },
    },
    async (req) => {
      const { userId, disabled } = req.body;
      await users.setDisabled(currentUser(req).id, userId, disabled);
      return ok({ userId, disabled }, '设置成功');
    },
  );
};
