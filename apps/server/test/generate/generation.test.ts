import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { readPngText } from '../../src/engines/png-text.js';
import { multipartBody } from '../helpers/multipart.js';
import { describeServer } from '../helpers/suite.js';
import { loginAdmin, registerUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { creditsOf, demoTemplate, generateBody, waitForEnd, waitForStatus } from './generation-helpers.js';

const SMALL = { width: 256, height: 256, steps: 8 };

describeServer('generate: from submit to works on the built-in engine', () => {
  const ctx = useTestApp({ users: ['user', 'other'] });
  let ink: Awaited<ReturnType<typeof demoTemplate>>;
  let twoStep: Awaited<ReturnType<typeof demoTemplate>>;
  beforeAll(async () => {
    ink = await demoTemplate(ctx.app, ctx.user.token, '水墨山水');
    twoStep = await demoTemplate(ctx.app, ctx.user.token, '场景化主图');
  });

  const post = (url: string, body: object, token = ctx.user.token) => ctx.app.call('POST', url, { token, body });

  it('predicts the cost, the place in line and the time before submitting', async () => {
    const res = await post('/api/generate/task/predict', generateBody(ink, { ...SMALL, batchSize: 2 }));
    expect(res.body).toMatchObject({ code: 0, data: { cost: 2, credits: 100, queuePosition: 1 } });
    expect(res.body.data.etaSeconds).toBeGreaterThan(0);
  });

  it('runs a generation to works: progress with a preview, images with thumbnails and parameters text', async () => {
    const before = await creditsOf(ctx.app, ctx.user.token);
    const submit = await post('/api/generate/task', generateBody(ink, { ...SMALL, batchSize: 2, seed: 1234 }));
    expect(submit.body).toMatchObject({ code: 0, data: { currentStepNum: 1 } });
    const { generateId, currentStepId } = submit.body.data;
    expect(await creditsOf(ctx.app, ctx.user.token)).toBe(before - 2);

    const { final, seen } = await waitForEnd(ctx.app, ctx.user.token, generateId);
    expect(final).toMatchObject({ status: 'succeeded', progress: 100, currentStepId, currentStepNum: 1 });
    expect(final.images).toHaveLength(2);
    expect(final.images.map((i: any) => i.seed)).toEqual([1234, 1235]);
    const percents = seen.filter((s) => s.status === 'running').map((s) => s.progress);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    const withPreview = seen.find((s) => s.previewUrl);
    expect(withPreview?.previewUrl).toMatch(/^\/api\/generate\/task\/preview\//);

    const [first] = final.images;
    const original = await ctx.app.app.inject({ method: 'GET', url: first.url });
    expect(original.headers['content-type']).toBe('image/png');
    const meta = await sharp(original.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([256, 256]);
    const text = readPngText(original.rawPayload).parameters;
    expect(text).toContain('Seed: 1234');
    expect(text).toContain('Steps: 8');
    expect(text).toMatch(/^[^\n]*ink wash/i);
    const thumb = await ctx.app.app.inject({ method: 'GET', url: first.thumbUrl });
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect(thumb.rawPayload.length).toBeLessThan(original.rawPayload.length);
    expect(await creditsOf(ctx.app, ctx.user.token)).toBe(before - 2);

    const work = await ctx.app.db
      .selectFrom('works')
      .selectAll()
      .where('id', '=', first.workId)
      .executeTakeFirstOrThrow();
    expect(work).toMatchObject({ user_id: ctx.user.userId, generation_id: generateId, template_id: ink.templateId });
    expect(Number(work.seed)).toBe(1234);
    expect(JSON.parse(work.parameters)).toMatchObject({ steps: 8, width: 256, seed: 1234 });
    const history = await ctx.app.db
      .selectFrom('prompt_history')
      .selectAll()
      .where('generation_id', '=', generateId)
      .execute();
    expect(history).toHaveLength(1);
    expect(JSON.parse(history[0]!.prompt_group)).toEqual(ink.taskStepList[0].promptGroup);
  });

  it('draws a random seed (-1) when the job is submitted, so every image of the batch has seed + i', async () => {
    const submit = await post('/api/generate/task', generateBody(ink, { ...SMALL, batchSize: 3, seed: -1 }));
    const { generateId } = submit.body.data;
    const job = await ctx.app.db
      .selectFrom('generation_jobs')
      .select('payload')
      .where('generation_id', '=', generateId)
      .executeTakeFirstOrThrow();
    const drawn = JSON.parse(job.payload).parameters.seed;
    expect(drawn).toBeGreaterThanOrEqual(0);
    const { final } = await waitForEnd(ctx.app, ctx.user.token, generateId);
    expect(final.images.map((i: any) => i.seed)).toEqual([0, 1, 2].map((i) => (drawn + i) % 4294967296));
  });

  it('is the same picture for the same prompt, seed and parameters', async () => {
    const run = async () => {
      const submit = await post('/api/generate/task', generateBody(ink, { ...SMALL, seed: 77 }));
      const { final } = await waitForEnd(ctx.app, ctx.user.token, submit.body.data.generateId);
      // Pixels, not bytes: each work's file carries its own AIGC label (ProduceID is the work's id).
      return sharp((await ctx.app.app.inject({ method: 'GET', url: final.images[0].url })).rawPayload)
        .raw()
        .toBuffer();
    };
    expect((await run()).equals(await run())).toBe(true);
  });

  it('runs the next template step on a chosen result (next-draw) in the same generation', async () => {
    const submit = await post('/api/generate/task', generateBody(twoStep, { ...SMALL, batchSize: 2 }));
    const { generateId } = submit.body.data;
    const { final } = await waitForEnd(ctx.app, ctx.user.token, generateId);
    const chosen = final.images[1];

    const step = await post('/api/generate/task/step', { generateId, imageWorkId: chosen.workId, stepIndex: 1 });
    expect(step.body).toMatchObject({ code: 0, data: { generateId, currentStepNum: 2 } });
    const next = await waitForEnd(ctx.app, ctx.user.token, generateId);
    expect(next.final).toMatchObject({ status: 'succeeded', currentStepNum: 2, stepIndex: 1 });
    expect(next.final.images).toHaveLength(1);
    expect(next.final.images[0]).toMatchObject({ width: 512, height: 512 });

    // Another user's image, or an image of another generation, cannot be drawn on.
    const foreign = await post(
      '/api/generate/task/step',
      { generateId, imageWorkId: chosen.workId, stepIndex: 1 },
      ctx.other.token,
    );
    expect(foreign.body).toMatchObject({ code: 404, msg: '生成任务不存在' });
  });

  it('interrupts a running generation: finished images are kept, the rest is refunded', async () => {
    const before = await creditsOf(ctx.app, ctx.user.token);
    const submit = await post(
      '/api/generate/task',
      generateBody(ink, { width: 512, height: 512, steps: 40, batchSize: 4, seed: 5 }),
    );
    const { generateId } = submit.body.data;
    expect(await creditsOf(ctx.app, ctx.user.token)).toBe(before - 4);
    // Past the first image (a quarter of the batch) but well before the last.
    await waitForStatus(ctx.app, ctx.user.token, generateId, 'running', 30);
    const stop = await post('/api/generate/task/interrupt', { generateId });
    expect(stop.body).toMatchObject({ code: 0, msg: '已中断' });
    const { final } = await waitForEnd(ctx.app, ctx.user.token, generateId);
    expect(final.status).toBe('interrupted');
    const kept = final.images.length;
    expect(kept).toBeGreaterThanOrEqual(1);
    expect(kept).toBeLessThan(4);
    expect(await creditsOf(ctx.app, ctx.user.token)).toBe(before - kept);
    const stored = await ctx.app.db.selectFrom('works').select('id').where('generation_id', '=', generateId).execute();
    expect(stored).toHaveLength(kept);
    // The CPU engine paints a third of four 512² images slower on a busy machine than the default 30 s allows.
  }, 90_000);

  it('cancels a queued generation with every credit back, and resumes the unfinished one after a reload', async () => {
    const before = await creditsOf(ctx.app, ctx.user.token);
    const first = await post('/api/generate/task', generateBody(ink, { ...SMALL, steps: 40 }));
    const second = await post('/api/generate/task', generateBody(ink, SMALL));
    const queued = await ctx.app.call('POST', '/api/generate/task/progress', {
      token: ctx.user.token,
      body: { generateId: second.body.data.generateId },
    });
    expect(queued.body.data).toMatchObject({ status: 'queued', queuePosition: 1 });

    const unfinished = await ctx.app.call('GET', '/api/generate/task/unfinish/task', { token: ctx.user.token });
    expect(unfinished.body.data).toMatchObject({ templateId: ink.templateId, stepIndex: 0 });
    expect([first.body.data.generateId, second.body.data.generateId]).toContain(unfinished.body.data.generateId);

    await post('/api/generate/task/interrupt', { generateId: second.body.data.generateId });
    const cancelled = await waitForEnd(ctx.app, ctx.user.token, second.body.data.generateId);
    expect(cancelled.final).toMatchObject({ status: 'interrupted', images: [] });
    await waitForEnd(ctx.app, ctx.user.token, first.body.data.generateId);
    expect(await creditsOf(ctx.app, ctx.user.token)).toBe(before - 1);
    const none = await ctx.app.call('GET', '/api/generate/task/unfinish/task', { token: ctx.user.token });
    expect(none.body).toMatchObject({ code: 0, data: null });
  });

  it('no longer lists a work in the progress answer once the user deleted it', async () => {
    const submit = await post('/api/generate/task', generateBody(ink, { ...SMALL, batchSize: 2 }));
    const { generateId } = submit.body.data;
    const { final } = await waitForEnd(ctx.app, ctx.user.token, generateId);
    const [gone, kept] = final.images;
    const removed = await ctx.app.call('DELETE', '/api/works', { token: ctx.user.token, body: { ids: [gone.workId] } });
    expect(removed.body.code).toBe(0);
    const after = await post('/api/generate/task/progress', { generateId });
    expect(after.body.data.images.map((image: any) => image.workId)).toEqual([kept.workId]);
    await ctx.app.call('DELETE', '/api/works', { token: ctx.user.token, body: { ids: [kept.workId] } });
    expect((await post('/api/generate/task/progress', { generateId })).body.data).toMatchObject({
      status: 'succeeded',
      images: [],
    });
  });

  it('keeps generations private: another user cannot poll, interrupt or step them', async () => {
    const submit = await post('/api/generate/task', generateBody(ink, SMALL));
    const { generateId } = submit.body.data;
    for (const url of ['/api/generate/task/progress', '/api/generate/task/interrupt']) {
      expect((await post(url, { generateId }, ctx.other.token)).body).toMatchObject({ code: 404 });
    }
    await waitForEnd(ctx.app, ctx.user.token, generateId);
    expect((await post('/api/generate/task/progress', { generateId: 'nope' })).body).toMatchObject({ code: 404 });
    expect((await ctx.app.call('POST', '/api/generate/task/progress', { body: { generateId } })).status).toBe(401);
  });

  it('rejects out-of-range values, unknown choices and another user’s files, queuing nothing', async () => {
    const upload = multipartBody([
      {
        filename: 'a.png',
        contentType: 'image/png',
        bytes: await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } })
          .png()
          .toBuffer(),
      },
    ]);
    const uploaded = await ctx.app.app.inject({
      method: 'POST',
      url: '/api/files/upload',
      payload: upload.payload,
      headers: { ...upload.headers, authorization: `Bearer ${ctx.other.token}` },
    });
    const othersFile = uploaded.json().data.fileId;
    const jobsBefore = await ctx.app.db.selectFrom('generation_jobs').select('id').execute();
    const credits = await creditsOf(ctx.app, ctx.user.token);

    const cases: [object, string][] = [
      [{ steps: 51 }, '采样步数不能大于 50'],
      [{ steps: 0 }, '采样步数不能小于 1'],
      [{ width: 4096 }, '宽度不能大于 1536'],
      [{ batchSize: 'many' }, '生成数量须为数字'],
      [{ cfgScale: 25 }, '提示词相关性不能大于 20'],
      [{ modelId: 'no-such-model' }, '模型不存在或已停用'],
      [{ sampler: '' }, '请选择采样器'],
    ];
    for (const [parameters, msg] of cases) {
      const res = await post('/api/generate/task', generateBody(ink, parameters));
      expect(res.body, JSON.stringify(parameters)).toMatchObject({ code: -1, msg });
    }
    const lineart = await demoTemplate(ctx.app, ctx.user.token, '线稿上色');
    const step = lineart.taskStepList[0];
    const unit = { ...step.parameters.controlNets?.[0], inputImageFileId: othersFile };
    const foreign = await post('/api/generate/task', generateBody(lineart, { controlNets: [unit] }));
    expect(foreign.body.code).toBe(-1);
    expect(foreign.body.msg).toMatch(/文件不存在/);
    const emptyPrompt = await post('/api/generate/task', { ...generateBody(ink, SMALL), promptGroup: [] });
    expect(emptyPrompt.body).toMatchObject({ code: -1, msg: '请至少添加一个提示词' });
    const badStep = await post('/api/generate/task', generateBody(ink, SMALL, 0));
    expect(badStep.body.code).toBe(0);
    await waitForEnd(ctx.app, ctx.user.token, badStep.body.data.generateId);
    const noStep = await post('/api/generate/task', { ...generateBody(ink, SMALL), stepIndex: 3 });
    expect(noStep.body).toMatchObject({ code: -1, msg: '模板「水墨山水」没有第 4 步' });
    const schema = await post('/api/generate/task', { ...generateBody(ink, SMALL), stepIndex: -1 });
    expect(schema.status).toBe(400);

    const jobsAfter = await ctx.app.db.selectFrom('generation_jobs').select('id').execute();
    expect(jobsAfter.length).toBe(jobsBefore.length + 1);
    expect(await creditsOf(ctx.app, ctx.user.token)).toBe(credits - 1);
  });

  it('answers 10004 with the quota message when credits run out, and admins can grant more', async () => {
    const poor = await registerUser(ctx.app);
    const admin = await loginAdmin(ctx.app);
    const take = await ctx.app.call('POST', '/api/admin/users/credits', {
      token: admin,
      body: { userId: poor.userId, amount: -99, remark: '测试' },
    });
    expect(take.body).toMatchObject({ code: 0, msg: '设置成功', data: { credits: 1 } });
    const big = await post('/api/generate/task', generateBody(ink, { ...SMALL, batchSize: 2 }), poor.token);
    expect(big.body.code).toBe(10004);
    expect(big.body.msg).toContain('算力不足');
    expect(await creditsOf(ctx.app, poor.token)).toBe(1);

    const store = await ctx.app.call('GET', '/api/account/combo/store', { token: poor.token });
    expect(store.body).toMatchObject({ code: 0, data: { credits: 1 } });
    expect(store.body.data.plans.length).toBeGreaterThan(0);

    await ctx.app.call('POST', '/api/admin/users/credits', { token: admin, body: { userId: poor.userId, amount: 5 } });
    const ok = await post('/api/generate/task', generateBody(ink, { ...SMALL, batchSize: 2 }), poor.token);
    expect(ok.body.code).toBe(0);
    await waitForEnd(ctx.app, poor.token, ok.body.data.generateId);
    expect(await creditsOf(ctx.app, poor.token)).toBe(4);
    const refused = await ctx.app.call('POST', '/api/admin/users/credits', {
      token: poor.token,
      body: { userId: poor.userId, amount: 100 },
    });
    expect(refused.status).toBe(403);
  });
});
