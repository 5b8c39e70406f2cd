import { comboPlanBodySchema, comboPlanSchema, comboStoreSchema } from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { doneAfter, ok } from '../../platform/envelope.js';
import { idParams, reply, replyEmpty } from '../../platform/route-schemas.js';
import type { ComboService } from './combo.service.js';

export const comboRoutes: FastifyPluginAsyncZod<{ combos: ComboService }> = async (app, { combos }) => {
  app.get(
    '/account/combo/store',
    {
      schema: { tags: ['套餐'], summary: '套餐商店', response: reply(comboStoreSchema) },
      onRequest: app.requireUser,
    },
    async (req) => ok(await combos.store(currentUser(req).id)),
  );

  const admin = { tags: ['管理后台'] };
  app.get(
    '/admin/combos',
    {
      schema: { ...admin, summary: '套餐列表（含停用）', response: reply(z.array(comboPlanSchema)) },
      onRequest: app.requireAdmin,
    },
    async () => ok(await combos.list()),
  );
  app.post(
    '/admin/combos',
    {
      schema: { ...admin, summary: '新建套餐', body: comboPlanBodySchema, response: reply(comboPlanSchema) },
      onRequest: app.requireAdmin,
    },
    async (req) => ok(await combos.create(req.body), '已保存'),
  );
  app.put(
    '/admin/combos/:id',
    {
      schema: {
        ...admin,
        summary: '修改套餐',
        params: idParams,
        body: comboPlanBodySchema,
        response: reply(comboPlanSchema),
      },
      onRequest: app.requireAdmin,
    },
    async (req) => ok(await combos.update(req.params.id, req.body), '已保存'),
  );
  app.delete(
    '/admin/combos/:id',
    { schema: { ...admin, summary: '删除套餐', params: idParams, response: replyEmpty }, onRequest: app.requireAdmin },
    async (req) => doneAfter(combos.remove(req.params.id), '删除成功'),
  );
};
