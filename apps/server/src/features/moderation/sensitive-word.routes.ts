import {
  MSG,
  sensitiveCategoryCountSchema,
  sensitiveWordAddBodySchema,
  sensitiveWordAddResultSchema,
  sensitiveWordDeleteBodySchema,
  sensitiveWordExportQuerySchema,
  sensitiveWordImportBodySchema,
  sensitiveWordPageSchema,
  sensitiveWordQuerySchema,
} from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { doneAfter, ok } from '../../platform/envelope.js';
import { reply, replyEmpty } from '../../platform/route-schemas.js';
import { datedFileName } from '../../platform/time-zone.js';
import type { SensitiveWordService } from './sensitive-word.service.js';

const tags = ['管理后台'];

/** 敏感词库 (admins only): docs/compliance.md § 内容安全. */
export const sensitiveWordRoutes: FastifyPluginAsyncZod<{ sensitiveWords: SensitiveWordService }> = async (
  app,
  { sensitiveWords },
) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    '/admin/sensitive-words',
    {
      schema: {
        tags,
        summary: '敏感词列表（可按分类筛选、按关键词搜索）',
        querystring: sensitiveWordQuerySchema,
        response: reply(sensitiveWordPageSchema),
      },
    },
    async (req) => ok(await sensitiveWords.page(req.query)),
  );

  app.get(
    '/admin/sensitive-words/categories',
    { schema: { tags, summary: '敏感词分类与词数', response: reply(z.array(sensitiveCategoryCountSchema)) } },
    async () => ok(await sensitiveWords.categories()),
  );

  app.post(
    '/admin/sensitive-words',
    {
      schema: {
        tags,
        summary: '添加敏感词（一个或多个）',
        body: sensitiveWordAddBodySchema,
        response: reply(sensitiveWordAddResultSchema),
      },
    },
    async (req) => ok(await sensitiveWords.add(req.body.words, req.body.category), '添加成功'),
  );

  app.delete(
    '/admin/sensitive-words',
    { schema: { tags, summary: '删除敏感词', body: sensitiveWordDeleteBodySchema, response: replyEmpty } },
    async (req) => doneAfter(sensitiveWords.remove(req.body.ids), MSG.deleted),
  );

  app.post(
    '/admin/sensitive-words/import',
    {
      schema: {
        tags,
        summary: '导入敏感词（每行一个，可写作“分类:词”）',
        body: sensitiveWordImportBodySchema,
        response: reply(sensitiveWordAddResultSchema),
      },
    },
    async (req) => ok(await sensitiveWords.import(req.body), MSG.imported),
  );

  app.get(
    '/admin/sensitive-words/export',
    {
      schema: {
        tags,
        summary: '导出敏感词（文本文件，每行“分类:词”）',
        querystring: sensitiveWordExportQuerySchema,
        produces: ['text/plain'],
      },
    },
    async (req, res) => {
      const name = datedFileName('sensitive-words', 'txt', app.displayTimeZone);
      return res
        .header('content-type', 'text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(await sensitiveWords.export(req.query.category));
    },
  );
};
