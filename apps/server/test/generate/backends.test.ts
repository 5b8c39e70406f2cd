import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type A1111Double, startA1111Double } from '../doubles/a1111-double.js';
import { multipartBody } from '../helpers/multipart.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { addModel, creditsOf, waitForEnd, waitForStatus } from './generation-helpers.js';

const CHECKPOINT = 'v1-5-pruned-emaonly.safetensors [6ce0161689]';

describeServer('generate: registered AUTOMATIC1111 backends (test doubles speaking the public API)', () => {
  const ctx = useTestApp({ admin: true, users: ['user'] });
  let modelId: string;
  let east: A1111Double;
  let west: A1111Double;
  const backendIds: Record<string, string> = {};
  beforeAll(async () => {
    east = await startA1111Double({ stepDelayMs: 20 });
    west = await startA1111Double({ stepDelayMs: 20 });
    modelId = await addModel(ctx.app, ctx.admin, {
      group: 'GPU',
      modelName: 'SD 1.5 官方',
      engine: 'sdwebui',
      checkpoint: CHECKPOINT,
    });
  });
  afterAll(async () => {
    await east.close();
    await west.close();
  });

  const freeCreation = (parameters: object = {}) => ({
    templateId: null,
    promptGroup: [{ id: 'p1', groupName: '山', promptText: 'mountain', custom: '1' }],
    negativePromptGroup: [],
    parameters: { modelId, width: 256, height: 256, steps: 10, ...parameters },
  });
  const submit = async (parameters: object = {}) => {
    const res = await ctx.app.call('POST', '/api/generate/task', {
      token: ctx.user.token,
      body: freeCreation(parameters),
    });
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data.generateId as string;
  };
  const backends = async () =>
    (await ctx.app.call('GET', '/api/admin/backends', { token: ctx.admin })).body.data as any[];

  it('refuses a model no backend serves, then runs it on a registered backend with the model switched per request', async () => {
    const refused = await ctx.app.call('POST', '/api/generate/task', { token: ctx.user.token, body: freeCreation() });
    expect(refused.body).toMatchObject({
      code: -1,
      msg: '当前没有可用的推理后端支持模型「SD 1.5 官方」，请联系管理员',
    });

    for (const [name, double] of [
      ['东区 A1111', east],
      ['西区 A1111', west],
    ] as const) {
      const res = await ctx.app.call('POST', '/api/admin/backends', {
        token: ctx.admin,
        body: { name, kind: 'sdwebui', baseUrl: double.url, models: [CHECKPOINT], enabled: true },
      });
      expect(res.body).toMatchObject({
        code: 0,
        data: { name, healthy: true, healthMessage: expect.stringContaining('正常') },
      });
      backendIds[name] = res.body.data.id;
    }
    const list = await backends();
    expect(list.map((b) => b.name)).toEqual(['内置演示引擎', '东区 A1111', '西区 A1111']);
    expect(list[0]).toMatchObject({ builtin: true, healthy: true });

    // The form's option lists now offer what the GPU servers have, next to the built-in engine's.
    const options = async (path: string) =>
      (await ctx.app.call('GET', `/api/options/${path}`, { token: ctx.user.token })).body.data.map((o: any) => o.value);
    expect(await options('samplers')).toEqual(expect.arrayContaining(['Euler a', 'DPM++ 2M Karras', 'Heun', 'LMS']));
    expect(await options('controlnet/modules')).toEqual(expect.arrayContaining(['canny', 'invert', 'depth_midas']));
    expect(await options('controlnet/models')).toContain('control_v11p_sd15_canny [d14c016b]');

    const generateId = await submit({ seed: 42, batchSize: 2 });
    const { final } = await waitForEnd(ctx.app, ctx.user.token, generateId);
    expect(final).toMatchObject({ status: 'succeeded' });
    expect(final.images.map((i: any) => i.seed)).toEqual([42, 43]);
    const jobs = [...east.jobs, ...west.jobs];
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ model: CHECKPOINT, seeds: [42, 43] });
    const sent = [...east.requestsTo('/sdapi/v1/txt2img'), ...west.requestsTo('/sdapi/v1/txt2img')][0]!;
    expect(sent.body).toMatchObject({ prompt: 'mountain', override_settings: { sd_model_checkpoint: CHECKPOINT } });
    expect([...east.requestsTo('/sdapi/v1/options', 'POST'), ...west.requestsTo('/sdapi/v1/options', 'POST')]).toEqual(
      [],
    );
  });

  it('previews a preprocessor only a registered backend has, through its /controlnet/detect', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#a0a0a0' } })
      .png()
      .toBuffer();
    const upload = multipartBody([{ filename: 'ref.png', contentType: 'image/png', bytes: png }]);
    const uploaded = await ctx.app.app.inject({
      method: 'POST',
      url: '/api/files/upload',
      payload: upload.payload,
      headers: { ...upload.headers, authorization: `Bearer ${ctx.user.token}` },
    });
    const fileId = uploaded.json().data.fileId;
    const detectsBefore = east.requestsTo('/controlnet/detect').length + west.requestsTo('/controlnet/detect').length;
    const preview = await ctx.app.call('POST', '/api/generate/task/controlnet/preview', {
      token: ctx.user.token,
      body: { fileId, controlnetModule: 'depth_midas' },
    });
    expect(preview.body).toMatchObject({ code: 0, data: { url: expect.stringMatching(/^\/api\/files\//) } });
    const detects = east.requestsTo('/controlnet/detect').length + west.requestsTo('/controlnet/detect').length;
    expect(detects).toBe(detectsBefore + 1);
    const unknown = await ctx.app.call('POST', '/api/generate/task/controlnet/preview', {
      token: ctx.user.token,
      body: { fileId, controlnetModule: 'no_such_module' },
    });
    expect(unknown.body).toMatchObject({ code: -1, msg: '不支持的预处理器：no_such_module' });
  });

  it('retries a job on another backend when one fails, and marks the failed one down until it is checked', async () => {
    // The backend idle longest goes first: the one that has not run a job yet.
    const [first, second] = east.jobs.length === 0 ? [east, west] : [west, east];
    const firstName = first === east ? '东区 A1111' : '西区 A1111';
    const secondName = first === east ? '西区 A1111' : '东区 A1111';
    first.failNext('error');
    const generateId = await submit();
    const { final } = await waitForEnd(ctx.app, ctx.user.token, generateId);
    expect(final.status).toBe('succeeded');
    expect(second.jobs.at(-1)?.imageCount).toBe(1);
    const work = await ctx.app.db
      .selectFrom('works')
      .select('backend')
      .where('generation_id', '=', generateId)
      .executeTakeFirstOrThrow();
    expect(work.backend).toBe(secondName);
    const job = await ctx.app.db
      .selectFrom('generation_jobs')
      .select('attempts')
      .where('generation_id', '=', generateId)
      .executeTakeFirstOrThrow();
    expect(job.attempts).toBe(1);

    expect((await backends()).find((b) => b.name === firstName)).toMatchObject({ healthy: false });
    const checked = await ctx.app.call('POST', `/api/admin/backends/${backendIds[firstName]}/check`, {
      token: ctx.admin,
    });
    expect(checked.body.data).toMatchObject({ healthy: true });
  });

  it('fails a job with a clear message and its credits back when every backend fails', async () => {
    const before = await creditsOf(ctx.app, ctx.user.token);
    east.failNext('error');
    west.failNext('error');
    const generateId = await submit();
    const { final } = await waitForEnd(ctx.app, ctx.user.token, generateId);
    expect(final).toMatchObject({
      status: 'failed',
      message: '推理后端暂时不可用（已尝试 2 次），本次预扣的算力已退回，请稍后再试',
      images: [],
    });
    expect(await creditsOf(ctx.app, ctx.user.token)).toBe(before);
    for (const id of Object.values(backendIds))
      await ctx.app.call('POST', `/api/admin/backends/${id}/check`, { token: ctx.admin });
  });

  it('interrupts a job running on a backend through its interrupt call', async () => {
    const before = await creditsOf(ctx.app, ctx.user.token);
    const generateId = await submit({ steps: 50 });
    await waitForStatus(ctx.app, ctx.user.token, generateId, 'running', 10);
    await ctx.app.call('POST', '/api/generate/task/interrupt', { token: ctx.user.token, body: { generateId } });
    const { final } = await waitForEnd(ctx.app, ctx.user.token, generateId);
    expect(final.status).toBe('interrupted');
    expect(east.interruptCount + west.interruptCount).toBe(1);
    expect(await creditsOf(ctx.app, ctx.user.token)).toBe(before - final.images.length);
  });

  it('lets only admins manage backends, validates them and protects the built-in engine', async () => {
    expect((await ctx.app.call('GET', '/api/admin/backends', { token: ctx.user.token })).status).toBe(403);
    const bad = await ctx.app.call('POST', '/api/admin/backends', {
      token: ctx.admin,
      body: { name: '坏地址', kind: 'sdwebui', baseUrl: 'ftp://x', models: [] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('后端地址须为 http:// 或 https:// 开头的网址');
    const builtin = await ctx.app.call('DELETE', '/api/admin/backends/builtin', { token: ctx.admin });
    expect(builtin.body).toMatchObject({ code: -1, msg: '内置演示引擎不能修改或删除' });
    const down = await ctx.app.call('POST', '/api/admin/backends', {
      token: ctx.admin,
      body: { name: '离线', kind: 'sdwebui', baseUrl: 'http://127.0.0.1:9', models: [] },
    });
    expect(down.body.data).toMatchObject({ healthy: false, hasSecret: false });
    const removed = await ctx.app.call('DELETE', `/api/admin/backends/${down.body.data.id}`, { token: ctx.admin });
    expect(removed.body).toMatchObject({ code: 0, msg: '删除成功' });
  });
});
