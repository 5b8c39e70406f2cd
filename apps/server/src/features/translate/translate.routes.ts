import { translateBodySchema, translateResultSchema } from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { ok } from '../../platform/envelope.js';
import { reply } from '../../platform/route-schemas.js';
import type { TranslateService } from './translate.service.js';

export const translateRoutes: FastifyPluginAsyncZod<{ translate: TranslateService; perUserPerMinute: number }> = async (
  app,
  { translate, perUserPerMinute },
) => {
  app.post(
    '/translate/zh2en',
    {
      schema: {
        tags: ['翻译'],
        summary: '中文提示词译为英文（保留权重、括号、LoRA 等语法）',
        body: translateBodySchema,
        response: reply(translateResultSchema),
      },
      onRequest: app.requireUser,
      // Counted per user, so the limiter runs at preHandler, after requireUser has set the user.
      config: {
        rateLimit: {
          max: perUserPerMinute,
          timeWindow: 60_000,
          hook: 'preHandler',
          keyGenerator: (req) => `translate:${currentUser(req).id}`,
        },
      },
    },
    async (req) => ok({ text: await translate.zh2en(req.body.text) }),
  );
};
