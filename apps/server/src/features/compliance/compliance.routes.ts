import { aigcBadgeSchema, complianceSettingsSchema, MSG } from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../platform/envelope.js';
import { reply } from '../../platform/route-schemas.js';
import type { ComplianceService } from './compliance.service.js';

/** 合规设置 (admins) and the badge text every gallery shows (anyone). */
export const complianceRoutes: FastifyPluginAsyncZod<{ compliance: ComplianceService }> = async (
  app,
  { compliance },
) => {
  const tags = ['管理后台'];

  app.get(
    '/admin/compliance',
    {
      schema: { tags, summary: '合规设置（AI 生成内容标识）', response: reply(complianceSettingsSchema) },
      onRequest: app.requireAdmin,
    },
    async () => ok(await compliance.settings()),
  );

  app.post(
    '/admin/compliance',
    {
      schema: {
        tags,
        summary: '保存合规设置',
        body: complianceSettingsSchema,
        response: reply(complianceSettingsSchema),
      },
      onRequest: app.requireAdmin,
    },
    async (req) => ok(await compliance.save(req.body), MSG.set),
  );

  app.get(
    '/app/configs/aigcLabel',
    { schema: { tags: ['应用配置'], summary: '作品的 AI 生成角标文字（无需登录）', response: reply(aigcBadgeSchema) } },
    async () => ok({ text: (await compliance.settings()).markText }),
  );
};
