import {
  helpUrlFlagSchema,
  MSG,
  promptListQuerySchema,
  promptTreeNodeSchema,
  promptWordBodySchema,
  promptWordPageSchema,
  promptWordSchema,
} from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { doneAfter, ok } from '../../platform/envelope.js';
import { idParams, reply, replyEmpty } from '../../platform/route-schemas.js';
import type { PromptService } from './prompt.service.js';

const treeQuery = z.object({ helpUrlFlag: helpUrlFlagSchema });
const treeReply = reply(z.array(promptTreeNodeSchema));
const tags = ['提示词'];

export const promptRoutes: FastifyPluginAsyncZod<{ prompts: PromptService }> = async (app, { prompts }) => {
  app.get(
    '/prompt/tree',
    {
      schema: { tags, summary: '正向词库树', querystring: treeQuery, response: treeReply },
      onRequest: app.requireUser,
    },
    async (req) => ok(await prompts.tree('positive', req.query.helpUrlFlag)),
  );
  app.get(
    '/prompt/negative/tree',
    {
      schema: { tags, summary: '反向词库树', querystring: treeQuery, response: treeReply },
      onRequest: app.requireUser,
    },
    async (req) => ok(await prompts.tree('negative', req.query.helpUrlFlag)),
  );
  app.get(
    '/prompt/list',
    {
      schema: {
        tags,
        summary: '正向词库（分页，可按中英文搜索）',
        querystring: promptListQuerySchema,
        response: reply(promptWordPageSchema),
      },
      onRequest: app.requireUser,
    },
    async (req) => ok(await prompts.page('positive', req.query)),
  );
  app.get(
    '/prompt/negative/list',
    {
      schema: {
        tags,
        summary: '反向词库（分页，可按中英文搜索）',
        querystring: promptListQuerySchema,
        response: reply(promptWordPageSchema),
      },
      onRequest: app.requireUser,
    },
    async (req) => ok(await prompts.page('negative', req.query)),
  );

  const admin = { tags: ['管理后台'] };
  app.post(
    '/admin/prompt/words',
    {
      schema: {
        ...admin,
        summary: '新增提示词',
        body: promptWordBodySchema.extend({ categoryId: z.string({ error: '请选择分类' }).min(1, '请选择分类') }),
        response: reply(promptWordSchema),
      },
      onRequest: app.requireAdmin,
    },
    async (req) => ok(await prompts.createWord(req.body.categoryId, req.body), MSG.set),
  );
  app.put(
    '/admin/prompt/words/:id',
    {
      schema: {
        ...admin,
        summary: '修改提示词',
        params: idParams,
        body: promptWordBodySchema,
        response: reply(promptWordSchema),
      },
      onRequest: app.requireAdmin,
    },
    async (req) => ok(await prompts.updateWord(req.params.id, req.body), MSG.set),
  );
  app.delete(
    '/admin/prompt/words/:id',
    {
      schema: { ...admin, summary: '删除提示词', params: idParams, response: replyEmpty },
      onRequest: app.requireAdmin,
    },
    async (req) => doneAfter(prompts.deleteWord(req.params.id), MSG.deleted),
  );
};
