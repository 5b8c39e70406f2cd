import { controlnetPreviewBodySchema, uploadResultSchema } from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { ok } from '../../platform/envelope.js';
import { reply } from '../../platform/route-schemas.js';
import type { ControlnetPreviewService } from './controlnet-preview.service.js';

export const generateRoutes: FastifyPluginAsyncZod<{ controlnetPreview: ControlnetPreviewService }> = async (
  app,
  { controlnetPreview },
) => {
  app.post(
    '/generate/task/controlnet/preview',
    {
      schema: {
        tags: ['生成'],
        summary: 'ControlNet 预处理预览',
        body: controlnetPreviewBodySchema,
        response: reply(uploadResultSchema),
      },
      onRequest: app.requireUser,
    },
    async (req) => ok(await controlnetPreview.preview(currentUser(req).id, req.body)),
  );
};
