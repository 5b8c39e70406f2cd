import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIRROR_FRESH_MS, RedisProgressStore } from '../../src/features/generate/redis-progress-store.js';
import { newId } from '../../src/platform/ids.js';
import { describeServer } from '../helpers/suite.js';
import { registerUser, SCALE_OUT, type TestApp, type TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { demoTemplate, generateBody, waitForEnd, waitForStatus } from './generation-helpers.js';

const TINY = { width: 256, height: 256, steps: 6 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Scale-out API processes answer `progress` from a mirror of the progress entries kept current by the writers'
 * messages (RedisProgressStore with a feed). A poll through another API process (B) must still answer what Redis
 * holds: promptly after a worker's write, after B's subscription was lost, and for a finished generation exactly
 * what a read of Redis gives. Ownership holds in every mode.
 */
describeServer('progress: polls through any API process answer what the workers wrote', () => {
  const ctx = useTestApp({ users: ['owner', 'stranger'] });
  let ink: Awaited<ReturnType<typeof demoTemplate>>;
  beforeAll(async () => {
    ink = await demoTemplate(ctx.app, ctx.owner.token, '水墨山水');
  });

  const poll = (app: TestApp, user: TestUser, generateId: string) =>
    app.call('POST', '/api/generate/task/progress', { token: user.token, body: { generateId } });

  it("never shows a user another user's generation, before, while and after it is followed", async () => {
    const res = await ctx.app.call('POST', '/api/generate/task', {
      token: ctx.owner.token,
      body: generateBody(ink, TINY),
    });
    expect(res.body.code, res.body.msg).toBe(0);
    const generateId: string = res.body.data.generateId;
    const notFound = { code: 404, msg: '生成任务不存在' };
    expect((await poll(ctx.app, ctx.stranger, generateId)).body).toMatchObject(notFound);
    // The owner's polls put it in the mirror (scale-out); the stranger's polls then read that copy.
    await waitForStatus(ctx.app, ctx.owner.token, generateId, 'running');
    expect((await poll(ctx.app, ctx.stranger, generateId)).body).toMatchObject(notFound);
    await waitForEnd(ctx.app, ctx.owner.token, generateId);
    expect((await poll(ctx.app, ctx.stranger, generateId)).body).toMatchObject(notFound);
    expect((await poll(ctx.app, ctx.owner, generateId)).body).toMatchObject({ code: 0, data: { status: 'succeeded' } });
  });

  (SCALE_OUT ? describe : describe.skip)('scale-out: API process B beside the worker', () => {
    let b: TestApp;
    /** A worker of its own connection: writes progress as the worker process does, published as it writes. */
    let redis: Redis;
    let writer: RedisProgressStore;
    beforeAll(async () => {
      b = await ctx.app.sibling();
      for (let i = 0; i < 100 && !b.logLines.some((line) => line.includes('progress feed open')); i++) await sleep(50);
      redis = new Redis(ctx.app.config.redisUrl!);
      writer = new RedisProgressStore(redis, ctx.app.config.redisPrefix);
    });
    afterAll(async () => {
      await b?.close();
      redis?.disconnect();
    });

    /** A generation known only to the progress store (the route reads the store first), running at `percent`. */
    async function running(user: TestUser, percent: number) {
      const job = { generateId: newId(), jobId: newId(), stepNum: 1, stepIndex: 0 };
      await writer.queued(user.userId, job);
      await writer.running(job.generateId, job.jobId, 30);
      await writer.progress(job.generateId, job.jobId, { percent, etaSeconds: 20 });
      return job;
    }

    /** How long until B answers `percent`, polling every 10 ms (throws after `withinMs`). */
    async function untilB(generateId: string, percent: number, withinMs: number): Promise<number> {
      const started = Date.now();
      for (;;) {
        const res = await poll(b, ctx.owner, generateId);
        expect(res.body.code, res.body.msg).toBe(0);
        if (res.body.data.progress === percent) return Date.now() - started;
        if (Date.now() - started > withinMs) throw new Error(`B still answers ${res.body.data.progress} %`);
        await sleep(10);
      }
    }

    it("answers a worker's write from its next poll on, as a read of Redis would", async () => {
      const job = await running(ctx.owner, 10);
      expect((await poll(b, ctx.owner, job.generateId)).body.data).toMatchObject({ status: 'running', progress: 10 });
      for (const percent of [20, 35, 60]) {
        await writer.progress(job.generateId, job.jobId, { percent, etaSeconds: 10 });
        // The write is done, so the poll that follows shows it: no waiting for a message or for the mirror's bound.
        expect((await poll(b, ctx.owner, job.generateId)).body.data.progress).toBe(percent);
      }
      await writer.finished(job.generateId, job.jobId, 'interrupted', null);
      expect((await poll(b, ctx.owner, job.generateId)).body.data.status).toBe('interrupted');
      expect((await poll(b, ctx.stranger, job.generateId)).body).toMatchObject({ code: 404 });
    });

    it('answers current data after its subscription dropped, and follows the messages again once it is back', async () => {
      const job = await running(ctx.owner, 10);
      expect((await poll(b, ctx.owner, job.generateId)).body.data.progress).toBe(10);
      const opened = b.logLines.filter((line) => line.includes('progress feed open')).length;
      // Redis ends the subscriptions (as a restart or a network cut would); the worker writes while B is away.
      const admin = new Redis(ctx.app.config.redisUrl!);
      try {
        for (const line of String(await admin.client('LIST')).split('\n')) {
          const id = /(?:^|\s)id=(\d+)\s/.exec(line)?.[1];
          if (id && line.includes('name=huafang:api-progress-feed')) await admin.client('KILL', 'ID', id);
        }
      } finally {
        admin.disconnect();
      }
      await expect.poll(() => b.logLines.some((line) => line.includes('progress feed lost'))).toBe(true);
      await writer.progress(job.generateId, job.jobId, { percent: 40, etaSeconds: 10 });
      expect((await poll(b, ctx.owner, job.generateId)).body.data.progress).toBe(40);

      await expect
        .poll(() => b.logLines.filter((line) => line.includes('progress feed open')).length, { timeout: 5000 })
        .toBe(opened + 1);
      expect((await poll(b, ctx.owner, job.generateId)).body.data.progress).toBe(40);
      await writer.progress(job.generateId, job.jobId, { percent: 70, etaSeconds: 5 });
      expect((await poll(b, ctx.owner, job.generateId)).body.data.progress).toBe(70);
    });

    it('answers a write that was never published (an older worker) within the bound', async () => {
      const job = await running(ctx.owner, 10);
      expect((await poll(b, ctx.owner, job.generateId)).body.data.progress).toBe(10);
      const key = `${ctx.app.config.redisPrefix}:progress:${job.generateId}`;
      const entry = JSON.parse((await redis.get(key))!);
      entry.snapshot.progress = 55;
      await redis.set(key, JSON.stringify(entry), 'PX', 60_000);
      const waited = await untilB(job.generateId, 55, MIRROR_FRESH_MS + 2000);
      expect(waited).toBeLessThanOrEqual(MIRROR_FRESH_MS + 500);
    });

    it('gives the final answer of a finished generation, the same as a read of Redis', async () => {
      const res = await ctx.app.call('POST', '/api/generate/task', {
        token: ctx.owner.token,
        body: generateBody(ink, { ...TINY, batchSize: 2 }),
      });
      expect(res.body.code, res.body.msg).toBe(0);
      const generateId: string = res.body.data.generateId;
      const { final, seen } = await waitForEnd(b, ctx.owner.token, generateId, 60_000);
      expect(final).toMatchObject({ status: 'succeeded', progress: 100 });
      expect(final.images).toHaveLength(2);
      expect(seen.some((answer) => answer.status === 'running')).toBe(true);
      const stored = await writer.read(ctx.owner.userId, generateId);
      expect(final).toEqual(stored?.snapshot);
      // Later polls (from the mirror, then from Redis once it left the mirror) give the same answer.
      expect((await poll(b, ctx.owner, generateId)).body.data).toEqual(final);
      expect((await poll(ctx.app, ctx.owner, generateId)).body.data).toEqual(final);
      const another = await registerUser(b);
      expect((await poll(b, another, generateId)).body).toMatchObject({ code: 404, msg: '生成任务不存在' });
    });
  });
});
