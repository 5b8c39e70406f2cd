import { afterAll, beforeAll, expect, it } from 'vitest';
import { readPngText } from '../../src/engines/png-text.js';
import { type ComfyUiDouble, startComfyUiDouble } from '../doubles/comfyui-double.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { addModel, waitForEnd } from './generation-helpers.js';

const CHECKPOINT = 'sd15/dreamshaper_8.safetensors';

describeServer('generate: a registered ComfyUI backend behind a token proxy (test double)', () => {
  const ctx = useTestApp({ admin: true, users: ['user'] });
  let comfy: ComfyUiDouble;
  let modelId: string;
  beforeAll(async () => {
    comfy = await startComfyUiDouble({ stepDelayMs: 3, requireToken: 'proxy-secret' });
    modelId = await addModel(ctx.app, ctx.admin, {
      group: 'ComfyUI',
      modelName: 'DreamShaper 8',
      engine: 'comfyui',
      checkpoint: CHECKPOINT,
    });
  });
  afterAll(async () => {
    await comfy.close();
  });

  it('is down without the proxy token and up with it', async () => {
    const body = { name: '本地 ComfyUI', kind: 'comfyui', baseUrl: comfy.url, models: [], enabled: true };
    const without = await ctx.app.call('POST', '/api/admin/backends', { token: ctx.admin, body });
    expect(without.body.data).toMatchObject({ healthy: false });
    const fixed = await ctx.app.call('PUT', `/api/admin/backends/${without.body.data.id}`, {
      token: ctx.admin,
      body: { ...body, secret: 'proxy-secret' },
    });
    expect(fixed.body.data).toMatchObject({ healthy: true, hasSecret: true });
  });

  it('runs a free-creation job as an API-format graph and keeps the images as works', async () => {
    const submit = await ctx.app.call('POST', '/api/generate/task', {
      token: ctx.user.token,
      body: {
        templateId: null,
        promptGroup: [{ id: 'a', groupName: '灯塔', promptText: 'lighthouse', custom: '1' }],
        negativePromptGroup: [{ id: 'b', groupName: '模糊', promptText: 'blurry', custom: '1' }],
        parameters: { modelId, width: 256, height: 256, steps: 6, seed: 11, batchSize: 2, sampler: 'DPM++ 2M Karras' },
      },
    });
    expect(submit.body.code, submit.body.msg).toBe(0);
    const { final, seen } = await waitForEnd(ctx.app, ctx.user.token, submit.body.data.generateId);
    expect(final).toMatchObject({ status: 'succeeded' });
    expect(final.images.map((i: any) => i.seed)).toEqual([11, 12]);
    expect(seen.some((s) => s.status === 'running')).toBe(true);

    const graph = Object.values(comfy.prompts.at(-1)!.graph);
    expect(graph.find((n) => n.class_type === 'CheckpointLoaderSimple')?.inputs.ckpt_name).toBe(CHECKPOINT);
    const samplers = graph.filter((n) => n.class_type === 'KSampler');
    expect(samplers[0]?.inputs).toMatchObject({ sampler_name: 'dpmpp_2m', scheduler: 'karras', steps: 6 });
    const texts = graph.filter((n) => n.class_type === 'CLIPTextEncode').map((n) => n.inputs.text);
    expect(texts).toEqual(expect.arrayContaining(['lighthouse', 'blurry']));

    const original = await ctx.app.app.inject({ method: 'GET', url: final.images[0].url });
    expect(readPngText(original.rawPayload).parameters).toContain('Seed: 11');
    const work = await ctx.app.db
      .selectFrom('works')
      .select('backend')
      .where('id', '=', final.images[0].workId)
      .executeTakeFirstOrThrow();
    expect(work.backend).toBe('本地 ComfyUI');
  });
});
