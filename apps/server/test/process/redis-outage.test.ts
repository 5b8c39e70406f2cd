import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { type ApiProcess, RedisServer, ScaleOutCluster } from '../helpers/scale-out-cluster.js';
import { type ProcessAnswer, until } from '../helpers/server-process.js';
import { postgresReachable, requireServices } from '../helpers/services.js';

const problem =
  (await postgresReachable()) ??
  (spawnSync('redis-server', ['--version']).error ? 'no redis-server executable on PATH' : null);
if (problem) {
  if (requireServices) throw new Error(`REQUIRE_SERVICES=1 and ${problem}`);
  console.warn(`[server-process] SKIPPED Redis outage: ${problem}.`);
}

const REDIS_UNAVAILABLE = { code: -1, msg: '生成队列暂时无法连接，请稍后重试', data: null };
/** A request that has not answered by then counts as blocked: the outage must be answered, not waited out. */
const CLIENT_GIVES_UP_MS = 5_000;
const SMALL = { width: 256, height: 256, steps: 6, batchSize: 1 };

describe.skipIf(problem !== null)(
  'Redis outage: 2 API processes and a worker answer at once, say so in health, and recover',
  { timeout: 150_000 },
  () => {
    let redis: RedisServer;
    let cluster: ScaleOutCluster;
    let token: string;
    let generateId: string;
    beforeAll(async () => {
      redis = await RedisServer.start();
      cluster = await ScaleOutCluster.start({ redisUrl: redis.url, workers: 1, env: { JOB_LOCK_SECONDS: '3' } });
      token = await cluster.apis[0]!.login();
      generateId = await cluster.apis[0]!.submit(token, { ...SMALL, seed: 1 });
      expect((await cluster.apis[1]!.waitForEnd(token, generateId)).final.status).toBe('succeeded');
    }, 180_000);
    afterAll(async () => {
      await cluster?.close();
      await redis?.close();
    });

    const poll = (api: ApiProcess) =>
      api.call('POST', '/api/generate/task/progress', {
        token,
        body: { generateId },
        abortAfterMs: CLIENT_GIVES_UP_MS,
      });
    const health = (api: ApiProcess, admin = false) =>
      api.call('GET', '/api/health', { abortAfterMs: CLIENT_GIVES_UP_MS, ...(admin ? { token } : {}) });
    const workerHealth = async () => {
      const res = await fetch(`${cluster.workers[0]!.baseUrl}/health`, {
        signal: AbortSignal.timeout(CLIENT_GIVES_UP_MS),
      });
      return { status: res.status, body: await res.json() };
    };

    /** What every process answers while Redis is away: 503 for what needs it, the rest as usual. */
    async function expectOutageAnswers(): Promise<void> {
      const credits = await cluster.apis[0]!.credits(token);
      for (const api of cluster.apis) {
        expect(await poll(api)).toEqual({ status: 503, body: REDIS_UNAVAILABLE });
        const submitted = await api.call('POST', '/api/generate/task', {
          token,
          body: {
            templateId: null,
            promptGroup: [{ id: 'p1', groupName: '山', promptText: 'hill' }],
            parameters: SMALL,
          },
          abortAfterMs: CLIENT_GIVES_UP_MS,
        });
        expect(submitted).toEqual({ status: 503, body: REDIS_UNAVAILABLE });
        expect(await health(api)).toEqual({
          status: 200,
          body: { code: 0, msg: '生成队列暂时无法连接，其他功能正常', data: { status: 'degraded' } },
        });
        const forAdmin = (await health(api, true)).body.data;
        expect(forAdmin).toMatchObject({
          status: 'degraded',
          checks: { database: 'ok', storage: 'ok', redis: 'down' },
        });
        expect(forAdmin.queue).toBeNull();
      }
      // Nothing was charged for the refused submits; what needs no Redis still works.
      expect(await cluster.apis[1]!.credits(token)).toBe(credits);
      const worker = await workerHealth();
      expect(worker.status).toBe(503);
      expect(worker.body).toMatchObject({ ok: false, checks: { redis: 'down', database: 'ok' } });
    }

    /** Polls until every process serves again (no duration asserted), then checks a whole generation. */
    async function expectRecovery(seed: number): Promise<void> {
      const served = (answer: ProcessAnswer) => answer.status === 200 && answer.body.code === 0;
      await until('both API processes answer progress and report health ok again', async () => {
        const answers = await Promise.all(cluster.apis.flatMap((api) => [poll(api), health(api)]));
        return answers.every(served) && answers.every((answer) => answer.body.data.status !== 'degraded');
      });
      for (const api of cluster.apis) {
        expect((await poll(api)).body.data.status).toBe('succeeded');
        expect(await health(api)).toEqual({ status: 200, body: { code: 0, msg: 'ok', data: { status: 'ok' } } });
      }
      await until('the worker reports healthy again', async () => (await workerHealth()).status === 200);
      const forAdmin = (await health(cluster.apis[0]!, true)).body.data;
      expect(forAdmin).toMatchObject({ status: 'ok', checks: { redis: 'ok' }, queue: { failed: 0, workers: 1 } });
      const start = await cluster.apis[0]!.credits(token);
      const next = await cluster.apis[1]!.submit(token, { ...SMALL, seed });
      expect((await cluster.apis[0]!.waitForEnd(token, next)).final.status).toBe('succeeded');
      expect(await cluster.apis[0]!.credits(token)).toBe(start - 1);
    }

    it('Redis frozen (SIGSTOP): progress and submit answer 503 in Chinese, health says degraded, the worker 503; all serve again after SIGCONT', async () => {
      onTestFailed(() => console.log(`${cluster.logs()}\n--- redis ---\n${redis.output.slice(-2000)}`));
      redis.pause();
      try {
        await expectOutageAnswers();
      } finally {
        redis.resume();
      }
      await expectRecovery(10);
    });

    it('Redis stopped: the same answers while it is away, and everything serves again once it is back', async () => {
      onTestFailed(() => console.log(`${cluster.logs()}\n--- redis ---\n${redis.output.slice(-2000)}`));
      await redis.stop();
      try {
        await expectOutageAnswers();
      } finally {
        await redis.launch();
      }
      await expectRecovery(20);
      expect(cluster.exited()).toEqual([]);
    });

    it('PostgreSQL refusing connections: the worker health answers 503 with the database down, then 200 again', async () => {
      onTestFailed(() => console.log(cluster.logs()));
      await until('the worker is healthy to begin with', async () => (await workerHealth()).status === 200);
      await cluster.refuseDatabaseConnections(true);
      try {
        const worker = await workerHealth();
        expect(worker.status).toBe(503);
        expect(worker.body).toMatchObject({ ok: false, checks: { database: 'down', redis: 'ok' } });
      } finally {
        await cluster.refuseDatabaseConnections(false);
      }
      await until('the worker reports healthy again', async () => (await workerHealth()).status === 200);
      expect(cluster.exited()).toEqual([]);
    });
  },
);
