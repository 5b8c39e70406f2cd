import { formOptionSchema } from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SIZE_PRESETS } from '../../engines/builtin/catalog.js';
import { ok } from '../../platform/envelope.js';
import { reply } from '../../platform/route-schemas.js';
import type { BackendOptions } from '../backends/backend-catalog.js';
import type { ModelService } from '../models/model.service.js';

const optionsReply = reply(z.array(formOptionSchema));
const tags = ['表单选项'];
const asOptions = (values: string[]) => values.map((value) => ({ label: value, value }));

/** The option sources form config `url`s point to; samplers and ControlNet lists come from the backends. */
export const optionRoutes: FastifyPluginAsyncZod<{ models: ModelService; backendOptions: BackendOptions }> = async (
  app,
  { models, backendOptions },
) => {
  app.addHook('onRequest', app.requireUser);
  app.get('/options/samplers', { schema: { tags, summary: '采样器', response: optionsReply } }, async () =>
    ok(asOptions((await backendOptions.options()).samplers)),
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
    async () => ok((await backendOptions.options()).controlNetModules),
  );
  app.get(
    '/options/controlnet/models',
    { schema: { tags, summary: 'ControlNet 模型', response: optionsReply } },
    async () => ok(asOptions((await backendOptions.options()).controlNetModels)),
  );
};
