import {
  polishBodySchema,
  polishResultSchema,
  translateBodySchema,
  translateFeaturesSchema,
  translateResultSchema,
} from '@huafang/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { ok } from '../../platform/envelope.js';
import { reply } from '../../platform/route-schemas.js';
import type { TranslateService } from './translate.service.js';

export const translateRoutes: FastifyPluginAsyncZod<{ translate: TranslateService; perUserPerMinute: number }> = async (
  app,
  { translate, perUserPerMinute },
) => {
  // Counted per user, so the limiter runs at preHandler, after requireUser has set the user.
  const translationBudget = {
    rateLimit: {
      max: perUserPerMinute,
      timeWindow: 60_000,
      hook: 'preHandler' as const,
      keyGenerator: (req: FastifyRequest) => `translate:${currentUser(req).id}`,
    },
  };

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
      config: translationBudget,
    },
    async (req) => ok({ text: await translate.zh2en(req.body.text) }),
  );

  app.get(
    '/translate/features',
    {
      schema: {
        tags: ['翻译'],
        summary: '翻译服务提供的功能（是否可用 AI 润色）',
        response: reply(translateFeaturesSchema),
      },
      onRequest: app.requireUser,
    },
    async () => ok({ polish: translate.canPolish }),
  );

  app.post(
    '/translate/polish',
    {
      schema: {
        tags: ['翻译'],
        summary: 'AI 润色：把简短的中文想法扩写成完整的画面描述和英文提示词',
        body: polishBodySchema,
        response: reply(polishResultSchema),
      },
      onRequest: app.requireUser,
      // Shares the translation's budget: both call the same paid provider.
      config: translationBudget,
    },
    async (req) => ok(await translate.polish(req.body.text)),
  );
};
