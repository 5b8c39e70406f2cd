import {
  controlnetPreviewBodySchema,
  generateBodySchema,
  generateIdBodySchema,
  generateResultSchema,
  generateStepBodySchema,
  generationProgressSchema,
  predictResultSchema,
  unfinishedGenerationSchema,
  uploadResultSchema,
} from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { doneAfter, ok } from '../../platform/envelope.js';
import { notFound } from '../../platform/errors.js';
import { compiledSerializer, plainGenerateId, reply, replyEmpty, withFastPath } from '../../platform/route-schemas.js';
import { originOf } from '../audit/audit-recorder.js';
import type { ComplianceService } from '../compliance/compliance.service.js';
import type { ControlnetPreviewService } from './controlnet-preview.service.js';
import type { GenerationService } from './generation.service.js';
import type { GenerationTracking } from './generation-tracking.js';
import type { ProgressStore } from './progress-store.js';

const tags = ['生成'];

export const generateRoutes: FastifyPluginAsyncZod<{
  controlnetPreview: ControlnetPreviewService;
  generation: GenerationService;
  tracking: GenerationTracking;
  board: ProgressStore;
  compliance: ComplianceService;
}> = async (app, { controlnetPreview, generation, tracking, board, compliance }) => {
  app.post(
    '/generate/task/controlnet/preview',
    {
      schema: {
        tags,
        summary: 'ControlNet 预处理预览',
        body: controlnetPreviewBodySchema,
        response: reply(uploadResultSchema),
      },
      onRequest: app.requireUser,
      config: { apiKeyScope: 'generate' },
    },
    async (req) => ok(await controlnetPreview.preview(currentUser(req).id, req.body)),
  );

  app.post(
    '/generate/task/predict',
    {
      schema: {
        tags,
        summary: '预估算力、排队位置与时间',
        body: generateBodySchema,
        response: reply(predictResultSchema),
      },
      onRequest: app.requireUser,
      config: { apiKeyScope: 'generate' },
    },
    async (req) => ok(await generation.predict(currentUser(req), req.body)),
  );

  app.post(
    '/generate/task',
    {
      schema: { tags, summary: '提交生成', body: generateBodySchema, response: reply(generateResultSchema) },
      onRequest: app.requireUser,
      config: { apiKeyScope: 'generate' },
    },
    async (req) => ok(await generation.submit(currentUser(req), req.body, originOf(req)), '已提交生成'),
  );

  app.post(
    '/generate/task/step',
    {
      schema: {
        tags,
        summary: '下一步（在所选结果上运行模板的下一步）',
        body: generateStepBodySchema,
        response: reply(generateResultSchema),
      },
      onRequest: app.requireUser,
      config: { apiKeyScope: 'generate' },
    },
    async (req) => ok(await generation.step(currentUser(req), req.body, originOf(req)), '已提交生成'),
  );

  app.post(
    '/generate/task/progress',
    {
      schema: { tags, summary: '生成进度', body: generateIdBodySchema, response: reply(generationProgressSchema) },
      validatorCompiler: withFastPath(plainGenerateId),
      serializerCompiler: compiledSerializer,
      onRequest: app.requireUser,
      config: { apiKeyScope: 'generate' },
      // Every open draw page polls about once a second: a line per poll would drown the log (errors still show).
      logLevel: 'warn',
    },
    async (req) => ok(await tracking.progress(currentUser(req), req.body.generateId)),
  );

  app.post(
    '/generate/task/interrupt',
    {
      schema: { tags, summary: '中断生成', body: generateIdBodySchema, response: replyEmpty },
      onRequest: app.requireUser,
      config: { apiKeyScope: 'generate' },
    },
    async (req) => doneAfter(tracking.interrupt(currentUser(req), req.body.generateId), '已中断'),
  );

  app.get(
    '/generate/task/unfinish/task',
    {
      schema: { tags, summary: '未完成的生成（刷新页面后继续）', response: reply(unfinishedGenerationSchema) },
      onRequest: app.requireUser,
      config: { apiKeyScope: 'generate' },
    },
    async (req) => ok(await tracking.unfinished(currentUser(req))),
  );

  // The live preview: an unguessable, short-lived key from the progress answer, so an <img> can load it. It is a
  // file that can be saved like any image, so it leaves as WebP with the AIGC labels, whatever the engine sent.
  app.get(
    '/generate/task/preview/:key',
    { schema: { tags, summary: '生成中的实时预览图（WebP）', params: z.object({ key: z.string().max(64) }) } },
    async (req, replyTo) => {
      const preview = await board.preview(req.params.key);
      if (!preview) throw notFound('预览图已过期');
      const labelled = await compliance.labelledWebp(preview.bytes, preview.generateId);
      return replyTo.header('content-type', 'image/webp').header('cache-control', 'no-store').send(labelled);
    },
  );
};
