import {
  webhookCreateBodySchema,
  webhookCreatedSchema,
  webhookDeliveryPageSchema,
  webhookDeliveryQuerySchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookIdParamsSchema,
  webhookTestResultSchema,
  webhookUpdateBodySchema,
} from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { doneAfter, ok } from '../../platform/envelope.js';
import { tooManyRequests } from '../../platform/errors.js';
import { reply, replyEmpty } from '../../platform/route-schemas.js';
import type { WebhookService } from './webhook.service.js';

const tags = ['Webhook'];
const params = webhookIdParamsSchema;

/** Webhook endpoints of the logged-in user (admins may add all-users endpoints); never open to API keys. */
export const webhookRoutes: FastifyPluginAsyncZod<{ webhooks: WebhookService; testsPerMinute: number }> = async (
  app,
  { webhooks, testsPerMinute },
) => {
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/user/webhooks',
    { schema: { tags, summary: '我的 Webhook 接收地址', response: reply(webhookEndpointListSchema) } },
    async (req) => ok(await webhooks.list(currentUser(req).id)),
  );

  app.post(
    '/user/webhooks',
    {
      schema: {
        tags,
        summary: '登记接收地址（签名密钥只在此时返回一次）',
        body: webhookCreateBodySchema,
        response: reply(webhookCreatedSchema),
      },
    },
    async (req) => ok(await webhooks.create(currentUser(req), req.body), '添加成功，请立即复制保存签名密钥'),
  );

  app.put(
    '/user/webhooks/:endpointId',
    {
      schema: {
        tags,
        summary: '修改接收地址',
        params,
        body: webhookUpdateBodySchema,
        response: reply(webhookEndpointSchema),
      },
    },
    async (req) => ok(await webhooks.update(currentUser(req), req.params.endpointId, req.body), '修改成功'),
  );

  app.post(
    '/user/webhooks/:endpointId/secret',
    {
      schema: {
        tags,
        summary: '重置签名密钥（新密钥只在此时返回一次，旧密钥立即失效）',
        params,
        response: reply(webhookCreatedSchema),
      },
    },
    async (req) =>
      ok(await webhooks.rotateSecret(currentUser(req).id, req.params.endpointId), '签名密钥已重置，请立即复制保存'),
  );

  app.delete(
    '/user/webhooks/:endpointId',
    { schema: { tags, summary: '删除接收地址', params, response: replyEmpty } },
    async (req) => doneAfter(webhooks.remove(currentUser(req).id, req.params.endpointId), '删除成功'),
  );

  app.post(
    '/user/webhooks/:endpointId/test',
    {
      schema: { tags, summary: '测试发送（webhook.test 事件）', params, response: reply(webhookTestResultSchema) },
      // Each one makes the server send a request and holds this one for up to 5 s: counted per user, over all API
      // processes (Redis in scale-out), at preHandler once requireUser has set the user.
      config: {
        rateLimit: {
          max: testsPerMinute,
          timeWindow: 60_000,
          hook: 'preHandler',
          keyGenerator: (req) => `webhook-test:${currentUser(req).id}`,
          errorResponseBuilder: (_req, ctx) =>
            tooManyRequests(`测试发送过于频繁（每分钟最多 ${ctx.max} 次），请 ${Math.ceil(ctx.ttl / 1000)} 秒后再试`),
        },
      },
    },
    async (req) => {
      const result = await webhooks.test(currentUser(req).id, req.params.endpointId);
      return ok(result, result.success ? '测试发送成功' : `测试发送失败：${result.error}`);
    },
  );

  app.get(
    '/user/webhooks/:endpointId/deliveries',
    {
      schema: {
        tags,
        summary: '投递记录',
        params,
        querystring: webhookDeliveryQuerySchema,
        response: reply(webhookDeliveryPageSchema),
      },
    },
    async (req) =>
      ok(await webhooks.deliveries(currentUser(req).id, req.params.endpointId, req.query.current, req.query.pageSize)),
  );
};
