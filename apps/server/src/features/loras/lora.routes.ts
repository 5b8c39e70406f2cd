import { loraAdminSchema, loraBodySchema, loraStyleSchema, MSG, modelSyncResultSchema } from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { doneAfter, ok } from '../../platform/envelope.js';
import { idParams, reply, replyEmpty } from '../../platform/route-schemas.js';
import type { LoraService } from './lora.service.js';
import type { ModelSyncService } from './model-sync.service.js';

export const loraRoutes: FastifyPluginAsyncZod<{ loras: LoraService; modelSync: ModelSyncService }> = async (
  app,
  { loras, modelSync },
) => {
  app.get(
    '/art/loras',
    {
      schema: { tags: ['模型'], summary: 'LoRA 风格列表', response: reply(z.array(loraStyleSchema)) },
      onRequest: app.requireUser,
    },
    async (req) => ok(await loras.styles(currentUser(req))),
  );

  const tags = ['管理后台'];
  app.get(
    '/admin/loras',
    {
      schema: { tags, summary: 'LoRA 风格（管理）', response: reply(z.array(loraAdminSchema)) },
      onRequest: app.requireAdmin,
    },
    async () => ok(await loras.adminList()),
  );
  app.post(
    '/admin/loras',
    {
      schema: { tags, summary: '新建 LoRA 风格', body: loraBodySchema, response: reply(loraAdminSchema) },
      onRequest: app.requireAdmin,
    },
    async (req) => ok(await loras.create(req.body), MSG.set),
  );
  app.put(
    '/admin/loras/:id',
    {
      schema: {
        tags,
        summary: '修改 LoRA 风格',
        params: idParams,
        body: loraBodySchema,
        response: reply(loraAdminSchema),
      },
      onRequest: app.requireAdmin,
    },
    async (req) => ok(await loras.update(req.params.id, req.body), MSG.set),
  );
  app.delete(
    '/admin/loras/:id',
    {
      schema: { tags, summary: '删除 LoRA 风格', params: idParams, response: replyEmpty },
      onRequest: app.requireAdmin,
    },
    async (req) => doneAfter(loras.remove(req.params.id), MSG.deleted),
  );
  app.post(
    '/admin/models/sync',
    {
      schema: { tags, summary: '从推理后端同步模型与 LoRA', response: reply(modelSyncResultSchema) },
      onRequest: app.requireAdmin,
    },
    async () => {
      const result = await modelSync.sync();
      const failed = result.backends.filter((backend) => !backend.ok).length;
      return ok(
        result,
        `已同步 ${result.backends.length - failed} 个后端${failed ? `，${failed} 个失败` : ''}${result.newLoras ? `，新发现 ${result.newLoras} 个 LoRA（已停用，待设置后启用）` : ''}`,
      );
    },
  );
};
