import { formOptionSchema } from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BUILTIN_CONTROLNET_MODELS,
  BUILTIN_CONTROLNET_MODULES,
  BUILTIN_SAMPLERS,
  SIZE_PRESETS,
} from '../../engines/builtin/catalog.js';
import { ok } from '../../platform/envelope.js';
import { reply } from '../../platform/route-schemas.js';
import type { ModelService } from '../models/model.service.js';

const optionsReply = reply(z.array(formOptionSchema));
const tags = ['表单选项'];

export const optionRoutes: FastifyPluginAsyncZod<{ models: ModelService }> = async (app, { models }) => {
  app.addHook('onRequest', app.requireUser);
  app.get('/options/samplers', { schema: { tags, summary: '采样器', response: optionsReply } }, async () =>
    ok(BUILTIN_SAMPLERS.map((s) => ({ label: s, value: s }))),
  );
  app.get('/options/sizes', { schema: { tags, summary: '尺寸预设', response: optionsReply } }, async () =>
    ok(SIZE_PRESETS),
  );
  app.get('/options/models', { schema: { tags, summary: '可用模型', response: optionsReply } }, async () =>
    ok((await models.enabledModels()).map((m) => ({ label: m.modelName, value: m.id }))),
  );
  app.get(
    '/options/controlnet/modules',
    { schema: { tags, summary: 'ControlNet 预处理器', response: optionsReply } },
    async () => ok(BUILTIN_CONTROLNET_MODULES),
  );
  app.get(
    '/options/controlnet/models',
    { schema: { tags, summary: 'ControlNet 模型', response: optionsReply } },
    async () => ok(BUILTIN_CONTROLNET_MODELS.map((m) => ({ label: m, value: m }))),
  );
};
