import {
  agreementBodySchema,
  agreementSchema,
  agreementTypeSchema,
  displayConfigSchema,
  MSG,
} from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { doneAfter, ok } from '../../platform/envelope.js';
import { reply, replyEmpty } from '../../platform/route-schemas.js';
import type { AppConfigService } from './app-config.service.js';

const params = z.object({ type: agreementTypeSchema });

export const appConfigRoutes: FastifyPluginAsyncZod<{ appConfig: AppConfigService }> = async (app, { appConfig }) => {
  app.get(
    '/app/configs/agreement/:type',
    { schema: { tags: ['应用配置'], summary: '协议与问卷', params, response: reply(agreementSchema) } },
    async (req) => ok(await appConfig.agreement(req.params.type)),
  );

  app.get(
    '/app/configs/display',
    { schema: { tags: ['应用配置'], summary: '显示设置（日期所用的时区）', response: reply(displayConfigSchema) } },
    async () => ok({ timeZone: app.displayTimeZone }),
  );

  app.put(
    '/admin/agreement/:type',
    {
      schema: { tags: ['管理后台'], summary: '编辑协议', params, body: agreementBodySchema, response: replyEmpty },
      onRequest: app.requireAdmin,
    },
    async (req) => doneAfter(appConfig.saveAgreement(req.params.type, req.body), MSG.set),
  );
};
