import {
  artModelSchema,
  backendCheckpointSchema,
  MSG,
  modelBodySchema,
  modelGroupBodySchema,
  modelGroupSchema,
  modelImportBodySchema,
  modelImportResultSchema,
  modelMenuQuerySchema,
} from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { doneAfter, ok } from '../../platform/envelope.js';
import { idParams, reply, replyEmpty } from '../../platform/route-schemas.js';
import type { ModelService } from './model.service.js';
import type { ModelImportService } from './model-import.service.js';

export const modelRoutes: FastifyPluginAsyncZod<{ models: ModelService; modelImport: ModelImportService }> = async (
  app,
  { models, modelImport },
) => {
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
    async (req) => ok(await models.menu(req.query.scope, currentUser(req))),
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
  app.put(
    '/admin/model-groups/:id',
    {
      schema: {
        tags,
        summary: '重命名模型分组',
        params: idParams,
        body: modelGroupBodySchema,
        response: reply(z.object({ id: z.string() })),
      },
      onRequest: app.requireAdmin,
    },
    async (req) => ok(await models.renameGroup(req.params.id, req.body.name), MSG.set),
  );
  app.delete(
    '/admin/model-groups/:id',
    { schema: { tags, summary: '删除模型分组', params: idParams, response: replyEmpty }, onRequest: app.requireAdmin },
    async (req) => doneAfter(models.removeGroup(req.params.id), MSG.deleted),
  );
  app.get(
    '/admin/backends/:id/checkpoints',
    {
      schema: {
        tags,
        summary: '推理后端报告的模型（checkpoint）',
        params: idParams,
        response: reply(z.array(backendCheckpointSchema)),
      },
      onRequest: app.requireAdmin,
    },
    async (req) => ok(await modelImport.checkpoints(req.params.id)),
  );
  app.post(
    '/admin/models/import',
    {
      schema: {
        tags,
        summary: '从推理后端导入模型',
        body: modelImportBodySchema,
        response: reply(modelImportResultSchema),
      },
      onRequest: app.requireAdmin,
    },
    async (req) => {
      const result = await modelImport.import(req.body);
      return ok(result, `已导入 ${result.created} 个模型${result.skipped ? `，跳过已有的 ${result.skipped} 个` : ''}`);
    },
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
    async (req) => doneAfter(models.remove(req.params.id), MSG.deleted),
  );
};
