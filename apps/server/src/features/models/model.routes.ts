import {
  artModelSchema,
  MSG,
  modelBodySchema,
  modelGroupBodySchema,
  modelGroupSchema,
  modelMenuQuerySchema,
} from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { done, ok } from '../../platform/envelope.js';
import { reply, replyEmpty } from '../../platform/route-schemas.js';
import type { ModelService } from './model.service.js';

const idParams = z.object({ id: z.string().max(64) });

export const modelRoutes: FastifyPluginAsyncZod<{ models: ModelService }> = async (app, { models }) => {
  app.get(
    '/art/model/menu',
    {
      schema: {
        tags: ['模型'],
        summary: '模型菜单',
        querystring: modelMenuQuerySchema,
        response: reply(z.array(modelGroupSchema)),
      },
      onRequest: app.requireUser,
    },
    async (req) => ok(await models.menu(req.query.scope)),
  );

  const tags = ['管理后台'];
  app.post(
    '/admin/model-groups',
    {
      schema: {
        tags,
        summary: '新建模型分组',
        body: modelGroupBodySchema,
        response: reply(z.object({ id: z.string() })),
      },
      onRequest: app.requireAdmin,
    },
    async (req) => ok(await models.createGroup(req.body.name), MSG.set),
  );
  app.post(
    '/admin/models',
    {
      schema: { tags, summary: '新建模型', body: modelBodySchema, response: reply(artModelSchema) },
      onRequest: app.requireAdmin,
    },
    async (req) => ok(await models.create(req.body), MSG.set),
  );
  app.put(
    '/admin/models/:id',
    {
      schema: { tags, summary: '修改模型', params: idParams, body: modelBodySchema, response: reply(artModelSchema) },
      onRequest: app.requireAdmin,
    },
    async (req) => ok(await models.update(req.params.id, req.body), MSG.set),
  );
  app.delete(
    '/admin/models/:id',
    { schema: { tags, summary: '删除模型', params: idParams, response: replyEmpty }, onRequest: app.requireAdmin },
    async (req) => {
      await models.remove(req.params.id);
      return done(MSG.deleted);
    },
  );
};
