import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildGenerationGraph } from '../../src/engines/comfyui/comfyui-graph.js';
import { readPngText } from '../../src/engines/png-text.js';
import { type ComfyUiDouble, startComfyUiDouble } from '../doubles/comfyui-double.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { addModel, waitForEnd, waitForStatus } from './generation-helpers.js';

const CHECKPOINT = 'sd15/dreamshaper_8.safetensors';

/**
 * Through the queue, a ComfyUI backend whose double behaves as the real server does (engines.md §4): a batch's
 * images finish in an order of the server's own, stops check /queue, saved PNGs carry ComfyUI's text chunks.
 */
describeServer('generate: a ComfyUI backend that behaves like the real server (test double)', () => {
  // No grace period: a restart stops a running job at once.
  const ctx = useTestApp({ admin: true, users: ['user'], config: { shutdownGraceMs: 0 } });
  let comfy: ComfyUiDouble;
  let modelId: string;
  beforeAll(async () => {
    // This start paints a 3-image batch last image first (2, 1, 0), so a stop part-way keeps a batch's end, not
    // its beginning; no assertion below relies on the order.
    comfy = await startComfyUiDouble({ stepDelayMs: 15, interruptDelayMs: 50, orderSeed: 6 });
    const backend = await ctx.app.call('POST', '/api/admin/backends', {
      token: ctx.admin,
      body: { name: '真实行为 ComfyUI', kind: 'comfyui', baseUrl: comfy.url, models: [], enabled: true },
    });
    expect(backend.body.data).toMatchObject({ healthy: true });
    modelId = await addModel(ctx.app, ctx.admin, {
      group: 'ComfyUI 真实',
      modelName: 'DreamShaper 8 真实',
      engine: 'comfyui',
      checkpoint: CHECKPOINT,
    });
  });
  afterAll(async () => {
    await comfy.close();
  });

  const submit = async (parameters: object) => {
    const res = await ctx.app.call('POST', '/api/generate/task', {
      token: ctx.user.token,
      body: {
        templateId: null,
        promptGroup: [{ id: 'a', groupName: '灯塔', promptText: 'lighthouse', custom: '1' }],
        negativePromptGroup: [{ id: 'b', groupName: '模糊', promptText: 'blurry', custom: '1' }],
        parameters: { modelId, width: 256, height: 256, sampler: 'Euler a', ...parameters },
      },
    });
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data.generateId as string;
  };

  const samplerSeeds = (from: number) =>
    comfy.prompts
      .slice(from)
      .flatMap((p) => Object.values(p.graph).filter((n) => n.class_type === 'KSampler'))
      .map((n) => n.inputs.seed as number);

  it('resumes a batch stopped by a graceful shutdown with exactly the missing seeds', async () => {
    const generateId = await submit({ steps: 30, batchSize: 3, seed: 1000 });
    // Past the first image the server saved, whichever of the batch it painted first.
    const sentBefore = comfy.sent.length;
    while (!comfy.sent.slice(sentBefore).some((m) => m.type === 'executed')) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // The rest of the batch slows down, so the stop lands part-way through it.
    comfy.setStepDelay(200);
    const promptsBefore = comfy.prompts.length;
    ctx.app = await ctx.app.restart();
    const afterStop = await ctx.app.call('POST', '/api/generate/task/progress', {
      token: ctx.user.token,
      body: { generateId },
    });
    const keptAtStop = afterStop.body.data.images.map((image: { seed: number }) => image.seed as number);
    comfy.setStepDelay(15);
    expect(keptAtStop.length).toBeGreaterThanOrEqual(1);
    const { final } = await waitForEnd(ctx.app, ctx.user.token, generateId, 60_000);
    expect(final.status).toBe('succeeded');
    const seeds = final.images.map((image: { seed: number }) => image.seed).sort((a: number, b: number) => a - b);
    expect(seeds).toEqual([1000, 1001, 1002]);
    expect(keptAtStop.length).toBeLessThan(3);
    // The resumed prompts paint the missing seeds and nothing else.
    const missing = [1000, 1001, 1002].filter((seed) => !keptAtStop.includes(seed));
    expect(samplerSeeds(promptsBefore).sort((a, b) => a - b)).toEqual(missing);
    const works = await ctx.app.db.selectFrom('works').select('seed').where('generation_id', '=', generateId).execute();
    expect(works.map((w) => Number(w.seed)).sort((a, b) => a - b)).toEqual([1000, 1001, 1002]);
  }, 90_000);

  it('stops our job waiting behind another client prompt without interrupting theirs', async () => {
    const { graph } = buildGenerationGraph(
      {
        mode: 'txt2img',
        prompt: 'their own picture',
        negativePrompt: '',
        checkpoint: CHECKPOINT,
        sampler: 'Euler a',
        steps: 60,
        cfgScale: 7,
        width: 64,
        height: 64,
        seed: 5,
        batchSize: 1,
      },
      { seed: 5 },
    );
    const theirs = (await (
      await fetch(`${comfy.url}/prompt`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: graph, client_id: 'another-site' }),
      })
    ).json()) as { prompt_id: string };
    const interruptsBefore = comfy.interrupts.length;
    const ourQueued = comfy.next('queued');
    const generateId = await submit({ steps: 4, batchSize: 1, seed: 2000 });
    const ours = await ourQueued;
    expect(comfy.queue()).toEqual({ running: [theirs.prompt_id], pending: [ours] });
    await waitForStatus(ctx.app, ctx.user.token, generateId, 'running');
    const stop = await ctx.app.call('POST', '/api/generate/task/interrupt', {
      token: ctx.user.token,
      body: { generateId },
    });
    expect(stop.body.code, stop.body.msg).toBe(0);
    const { final } = await waitForEnd(ctx.app, ctx.user.token, generateId);
    expect(final.status).toBe('interrupted');
    expect(comfy.interrupts.slice(interruptsBefore)).toEqual([]);
    expect(comfy.deletes).toContain(ours);
    await comfy.next('finished');
    const history = (await (await fetch(`${comfy.url}/history/${theirs.prompt_id}`)).json()) as Record<string, any>;
    expect(history[theirs.prompt_id].status.status_str).toBe('success');
  });

  it('keeps a reopenable workflow in a work, and no ComfyUI prompt chunk in the stored or public copy', async () => {
    const generateId = await submit({ steps: 3, batchSize: 1, seed: 3000 });
    const { final } = await waitForEnd(ctx.app, ctx.user.token, generateId);
    expect(final.status).toBe('succeeded');
    const workId = final.images[0].workId as string;
    const stored = (await ctx.app.app.inject({ method: 'GET', url: final.images[0].url })).rawPayload;
    const published = await ctx.app.call('POST', '/api/works/publish', {
      token: ctx.user.token,
      body: { id: workId, public: true, hidePrompt: false },
    });
    expect(published.body.code, published.body.msg).toBe(0);
    const publicCopy = (await ctx.app.app.inject({ method: 'GET', url: `/api/works/image/${workId}` })).rawPayload;
    for (const png of [stored, publicCopy]) {
      const texts = readPngText(png);
      expect(texts.prompt).toBeUndefined();
      expect(texts.parameters).toContain('Seed: 3000');
      const workflow = JSON.parse(texts.workflow!);
      expect(workflow.nodes.some((n: { type: string }) => n.type === 'KSampler')).toBe(true);
    }
    // ComfyUI itself did write its prompt chunk: the adapter took it out.
    const saved = comfy.prompts.at(-1)!;
    expect(saved.extraPngInfo?.workflow).toBeDefined();
  });
});

describeServer('generate: a ComfyUI backend dying mid-run (test doubles)', () => {
  const ctx = useTestApp({ admin: true, users: ['user'] });
  const doubles: ComfyUiDouble[] = [];
  let modelId: string;
  beforeAll(async () => {
    for (const name of ['东 ComfyUI', '西 ComfyUI']) {
      const double = await startComfyUiDouble({ stepDelayMs: 15, interruptDelayMs: 50 });
      doubles.push(double);
      const added = await ctx.app.call('POST', '/api/admin/backends', {
        token: ctx.admin,
        body: { name, kind: 'comfyui', baseUrl: double.url, models: [], enabled: true },
      });
      expect(added.body.data).toMatchObject({ healthy: true });
    }
    modelId = await addModel(ctx.app, ctx.admin, {
      group: 'ComfyUI 双机',
      modelName: 'DreamShaper 8 双机',
      engine: 'comfyui',
      checkpoint: CHECKPOINT,
    });
  });
  afterAll(async () => {
    await Promise.all(doubles.map((d) => d.close()));
  });

  it('keeps the progress a job reached while another backend paints it', async () => {
    const res = await ctx.app.call('POST', '/api/generate/task', {
      token: ctx.user.token,
      body: {
        templateId: null,
        promptGroup: [{ id: 'a', groupName: '灯塔', promptText: 'lighthouse', custom: '1' }],
        negativePromptGroup: [],
        parameters: { modelId, width: 256, height: 256, sampler: 'Euler a', steps: 30, seed: 4000 },
      },
    });
    expect(res.body.code, res.body.msg).toBe(0);
    const generateId = res.body.data.generateId as string;
    const reached = await waitForStatus(ctx.app, ctx.user.token, generateId, 'running', 30);
    // The server painting it goes away mid-run: the job moves to the other one.
    await doubles.find((d) => d.queue().running.length > 0)!.close();
    const { final, seen } = await waitForEnd(ctx.app, ctx.user.token, generateId, 60_000);
    expect(final.status, final.message).toBe('succeeded');
    const shown = seen.map((s) => s.progress as number);
    expect(Math.min(...shown)).toBeGreaterThanOrEqual(reached.progress);
    for (let i = 1; i < shown.length; i++) expect(shown[i]).toBeGreaterThanOrEqual(shown[i - 1]!);
    const job = await ctx.app.db
      .selectFrom('generation_jobs')
      .select('attempts')
      .where('generation_id', '=', generateId)
      .executeTakeFirstOrThrow();
    expect(Number(job.attempts)).toBe(1);
  }, 90_000);
});
