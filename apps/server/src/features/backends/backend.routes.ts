import { backendBodySchema, backendItemSchema } from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { doneAfter, ok } from '../../platform/envelope.js';
import { idParams, reply, replyEmpty } from '../../platform/route-schemas.js';
import type { BackendAdminService } from './backend-admin.service.js';

const tags = ['管理后台'];

/** 推理后端: register, edit, check and remove the inference servers the queue dispatches to. */
export const backendRoutes: FastifyPluginAsyncZod<{ backends: BackendAdminService }> = async (app, { backends }) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    '/admin/backends',
    { schema: { tags, summary: '推理后端列表', response: reply(z.array(backendItemSchema)) } },
    async () => ok(await backends.list()),
  );

  app.post(
    '/admin/backends',
    { schema: { tags, summary: '登记推理后端', body: backendBodySchema, response: reply(backendItemSchema) } },
    async (req) => ok(await backends.create(req.body), '已添加'),
  );

  app.put(
    '/admin/backends/:id',
    {
      schema: {
        tags,
        summary: '修改推理后端',
        params: idParams,
        body: backendBodySchema,
        response: reply(backendItemSchema),
      },
    },
    async (req) => ok(await backends.update(req.params.id, req.body), '已保存'),
  );

  app.post(
    '/admin/backends/:id/check',
    { schema: { tags, summary: '立即检测推理后端', params: idParams, response: reply(backendItemSchema) } },
    async (req) => ok(await backends.test(req.params.id)),
  );

  app.delete(
    '/admin/backends/:id',
    { schema: { tags, summary: '删除推理后端', params: idParams, response: replyEmpty } },
    async (req) => doneAfter(backends.remove(req.params.id), '删除成功'),
  );
};
