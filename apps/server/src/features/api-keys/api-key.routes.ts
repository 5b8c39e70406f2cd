import {
  apiKeyCreateBodySchema,
  apiKeyCreatedSchema,
  apiKeyIdParamsSchema,
  apiKeyListSchema,
} from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { doneAfter, ok } from '../../platform/envelope.js';
import { reply, replyEmpty } from '../../platform/route-schemas.js';
import type { ApiKeyService } from './api-key.service.js';

const tags = ['API 密钥'];

/** 个人 API 密钥, managed with a login session only: these routes name no apiKeyScope, so a key cannot make keys. */
export const apiKeyRoutes: FastifyPluginAsyncZod<{ apiKeys: ApiKeyService }> = async (app, { apiKeys }) => {
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/user/apiKeys',
    { schema: { tags, summary: '我的 API 密钥（只显示前缀）', response: reply(apiKeyListSchema) } },
    async (req) => ok(await apiKeys.list(currentUser(req).id)),
  );

  app.post(
    '/user/apiKeys',
    {
      schema: {
        tags,
        summary: '创建 API 密钥（完整密钥只在此时返回一次）',
        body: apiKeyCreateBodySchema,
        response: reply(apiKeyCreatedSchema),
      },
    },
    async (req) => ok(await apiKeys.create(currentUser(req).id, req.body), '创建成功，请立即复制保存密钥'),
  );

  app.delete(
    '/user/apiKeys/:keyId',
    { schema: { tags, summary: '删除（吊销）API 密钥', params: apiKeyIdParamsSchema, response: replyEmpty } },
    async (req) => doneAfter(apiKeys.revoke(currentUser(req).id, req.params.keyId), '删除成功'),
  );
};
