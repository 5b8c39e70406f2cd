import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { type A1111Double, startA1111Double } from '../doubles/a1111-double.js';
import { addModel } from '../generate/generation-helpers.js';
import {
  type ApiProcess,
  FreezingProxy,
  RedisServer,
  ScaleOutCluster,
  type WorkerProcess,
} from '../helpers/scale-out-cluster.js';
import { type Progress, sleep, until } from '../helpers/server-process.js';
import { postgresReachable, redisReachable, redisUrl, requireServices } from '../helpers/services.js';

const problem = (await postgresReachable()) ?? (await redisReachable());
if (problem) {
  if (requireServices) throw new Error(`REQUIRE_SERVICES=1 and ${problem}`);
  console.warn(`[server-process] SKIPPED scale-out: ${problem}. Start PostgreSQL and Redis to run it.`);
}
/** The Redis faults need a redis-server of their own (a Redis in a container does not give one). */
const redisServerProblem = spawnSync('redis-server', ['--version']).error ? 'no redis-server executable on PATH' : null;
if (!problem && redisServerProblem) {
  if (requireServices) throw new Error(`REQUIRE_SERVICES=1 and ${redisServerProblem}`);
  console.warn(
    `[server-process] SKIPPED scale-out Redis restarts: ${redisServerProblem}. Install redis-server to run them.`,
  );
}

/** Four images that take the built-in engine a few seconds here: a kill lands between the first and the last. */
const BATCH = { width: 384, height: 384, steps: 24, batchSize: 4 };
/** Four images that outlast the grace period of a stopping worker (about 10 s on a loaded 2-core machine). */
const LONG_BATCH = { width: 512, height: 512, steps: 40, batchSize: 4 };
/** What a batch of four costs (one credit per image up to 1024²). */
const BATCH_COST = 4;
const SHUTDOWN_GRACE_SECONDS = 2;
/** Past the server-process project's default: each test here waits for whole generations, a few of them long. */
const TEST_TIMEOUT_MS = 150_000;
const REDIS_UNAVAILABLE = '生成队列暂时无法连接，请稍后重试';
const DB_LOST = { status: 503, body: { code: -1, msg: '数据库连接中断，请稍后重试', data: null } };

/**
 * Every process of the cluster: a killed worker's job moves after about 3 s, a stopping worker hands its jobs back
 * after 2 s, a silent backend is given up after 3 s. One job per worker at a time (the built-in engine of each
 * process paints one at a time), and room for several jobs of the one user in BullMQ at once.
 */
const CLUSTER_ENV = {
  JOB_LOCK_SECONDS: '3',
  WORKER_CONCURRENCY: '1',
  SHUTDOWN_GRACE_SECONDS: String(SHUTDOWN_GRACE_SECONDS),
  BACKEND_TIMEOUT_SECONDS: '3',
  BACKEND_HEALTH_SECONDS: '5',
  QUEUE_MAX_RUNNING_PER_USER: '4',
  QUEUE_MAX_QUEUED_PER_USER: '10',
};

const seedsOf = (progress: Progress) => progress.images.map((image) => image.seed);
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

/** The job row of a generation (its id is what workers log). */
async function jobOf(cluster: ScaleOutCluster, generateId: string) {
  const [row] = await cluster.query<{ id: string; attempts: number; status: string }>(
    'select id, attempts, status from generation_jobs where generation_id = $1',
    [generateId],
  );
  expect(row, `no job row for ${generateId}`).toBeDefined();
  return row!;
}

/** The worker that started the job's current run. */
async function workerRunning(cluster: ScaleOutCluster, jobId: string): Promise<WorkerProcess> {
  let found: WorkerProcess | undefined;
  await until(`a worker starts job ${jobId}`, () => {
    found = cluster.workers.find((worker) => worker.started(jobId));
    return found !== undefined;
  });
  return found!;
}

describe.skipIf(problem !== null)(
  'scale-out processes: 2 API processes and 2 workers over PostgreSQL and Redis',
  { timeout: TEST_TIMEOUT_MS },
  () => {
    let cluster: ScaleOutCluster;
    let token: string;
    const api = (i: number): ApiProcess => cluster.apis[i]!;

    beforeAll(async () => {
      cluster = await ScaleOutCluster.start({ redisUrl, env: CLUSTER_ENV });
      token = await api(0).login();
    }, 90_000);
    afterAll(async () => {
      await cluster?.close();
    });
    const explainFailures = () => onTestFailed(() => console.log(cluster.logs()));

    it('a worker killed with SIGKILL mid-job: the other worker finishes it with every image, charged once', async () => {
      explainFailures();
      const start = await api(0).credits(token);
      const generateId = await api(0).submit(token, { ...BATCH, seed: 100 });
      const { id: jobId } = await jobOf(cluster, generateId);
      const victim = await workerRunning(cluster, jobId);
      const survivor = cluster.workers.find((worker) => worker !== victim)!;
      await api(1).waitForProgress(token, generateId, 30);
      const killedAt = Date.now();
      await victim.stop('SIGKILL');
      cluster.forget(victim);

      const { final } = await api(1).waitForEnd(token, generateId);
      const movedAfterMs = Date.now() - killedAt;
      expect(final.status, final.message ?? '').toBe('succeeded');
      expect(seedsOf(final)).toEqual(range(100, 4));
      await api(0).expectWorks(final.images);
      const resumed = survivor.runsOf(jobId);
      expect(resumed.length).toBe(1);
      expect(survivor.output).toContain('generation job recovered after restart');
      expect(await api(0).credits(token)).toBe(start - BATCH_COST);
      expect(await api(1).credits(token)).toBe(start - BATCH_COST);
      expect(cluster.exited()).toEqual([]);
      console.log(
        `[scale-out] SIGKILL: worker pid ${victim.pid} killed at ≥30%; pid ${survivor.pid} resumed the job ` +
          `(${resumed[0]!.images} images to paint) and it succeeded ${movedAfterMs} ms after the kill; ` +
          `credits ${start} → ${start - BATCH_COST}`,
      );
      await cluster.startWorker();
    });

    it('a worker stopped with SIGTERM mid-job: the job goes back to the other worker, the stopped one exits 0 within the grace period', async () => {
      explainFailures();
      const start = await api(0).credits(token);
      const generateId = await api(0).submit(token, { ...LONG_BATCH, seed: 200 });
      const { id: jobId } = await jobOf(cluster, generateId);
      const stopping = await workerRunning(cluster, jobId);
      const other = cluster.workers.find((worker) => worker !== stopping)!;
      await api(1).waitForProgress(token, generateId, 30);
      const signalledAt = Date.now();
      const exitCode = await stopping.stop('SIGTERM');
      const exitMs = Date.now() - signalledAt;
      cluster.forget(stopping);
      expect(exitCode).toBe(0);
      // The grace period, then the running step stops and the job is handed back: a second or two at most.
      expect(exitMs).toBeLessThan((SHUTDOWN_GRACE_SECONDS + 3) * 1000);
      expect(stopping.output).toContain('generation job handed back to the queue');

      const { final, seen } = await api(1).waitForEnd(token, generateId);
      expect(final.status, final.message ?? '').toBe('succeeded');
      expect(seen.map((progress) => progress.status)).not.toContain('interrupted');
      expect(seedsOf(final)).toEqual(range(200, 4));
      await api(1).expectWorks(final.images);
      const resumed = other.runsOf(jobId);
      expect(resumed.length).toBe(1);
      // Stopped past 30%: the first image was finished and kept, only the rest was painted again.
      expect(resumed[0]!.images).toBeLessThan(4);
      expect(await api(0).credits(token)).toBe(start - BATCH_COST);
      console.log(
        `[scale-out] SIGTERM: worker pid ${stopping.pid} exited 0 after ${exitMs} ms (grace ${SHUTDOWN_GRACE_SECONDS} s), ` +
          `keeping ${4 - resumed[0]!.images} images; pid ${other.pid} painted the other ${resumed[0]!.images}; ` +
          `credits ${start} → ${start - BATCH_COST}`,
      );
      await cluster.startWorker();
    });

    it('an API process killed with SIGKILL: a client polling through the other sees no gap until the generation succeeds', async () => {
      explainFailures();
      const [killed, polled] = [api(0), api(1)];
      const start = await polled.credits(token);
      const generateId = await killed.submit(token, { ...BATCH, seed: 300 });
      const answers: { status: number; code: number; msg: string; progress: number; state: string }[] = [];
      let final: Progress | undefined;
      let replacement: Promise<ApiProcess> | undefined;
      let pollsBeforeKill = 0;
      const deadline = Date.now() + 90_000;
      while (!final && Date.now() < deadline) {
        const res = await polled.poll(token, generateId);
        const data = res.body.data as Progress | null;
        answers.push({
          status: res.status,
          code: res.body.code,
          msg: res.body.msg,
          progress: data?.progress ?? -1,
          state: data?.status ?? '',
        });
        if (data && !['queued', 'running'].includes(data.status)) final = data;
        if (!replacement && data?.status === 'running' && data.progress >= 20) {
          pollsBeforeKill = answers.length;
          killed.signal('SIGKILL');
          cluster.forget(killed);
          replacement = cluster.startApi();
        }
        await sleep(100);
      }
      expect(replacement, 'the API process was never killed').toBeDefined();
      await replacement;
      expect(await killed.exited).toBeNull();
      expect(answers.filter((a) => a.status !== 200 || a.code !== 0)).toEqual([]);
      const progress = answers.map((a) => a.progress);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect(final?.status, final?.message ?? 'no end seen').toBe('succeeded');
      expect(seedsOf(final!)).toEqual(range(300, 4));
      expect(await polled.credits(token)).toBe(start - BATCH_COST);
      expect(cluster.exited()).toEqual([]);
      console.log(
        `[scale-out] API killed at ${answers[pollsBeforeKill - 1]?.progress}%: ${answers.length} polls through the other ` +
          `API (${answers.length - pollsBeforeKill} after the kill), all code 0, progress monotonic up to ${final?.status}`,
      );
    });

    it('PostgreSQL connections dropped while jobs run and polls happen: no process dies, later requests succeed, the jobs finish', async () => {
      explainFailures();
      const start = await api(0).credits(token);
      const generateIds = [
        await api(0).submit(token, { ...BATCH, seed: 400 }),
        await api(1).submit(token, { ...BATCH, seed: 500 }),
      ];
      await api(0).waitForProgress(token, generateIds[0]!, 10);

      let polling = true;
      const answers: { status: number; body: unknown }[] = [];
      const pollers = [0, 1].map(async (i) => {
        while (polling) {
          const res = await api(i)
            .poll(token, generateIds[i]!)
            .catch((err: Error) => ({ status: 0, body: { code: -2, msg: err.message, data: null } }));
          answers.push(res.body.code === 0 ? { status: res.status, body: 'ok' } : res);
          await sleep(50);
        }
      });
      let ended = 0;
      for (let round = 0; round < 4; round++) {
        ended += await cluster.terminateDatabaseConnections();
        await sleep(400);
      }
      polling = false;
      await Promise.all(pollers);

      expect(ended).toBeGreaterThan(0);
      expect(cluster.exited()).toEqual([]);
      // While the connections went down a poll may be told so; never anything else.
      for (const answer of answers.filter((a) => a.body !== 'ok')) expect(answer).toEqual(DB_LOST);
      for (const i of [0, 1]) {
        expect((await api(i).call('GET', '/api/user/currentUser', { token })).body.code).toBe(0);
      }
      for (const [i, generateId] of generateIds.entries()) {
        const { final } = await api(i).waitForEnd(token, generateId);
        expect(final.status, final.message ?? '').toBe('succeeded');
        expect(seedsOf(final)).toEqual(range(400 + 100 * i, 4));
      }
      expect(await api(0).credits(token)).toBe(start - 2 * BATCH_COST);
      expect(cluster.exited()).toEqual([]);
      console.log(
        `[scale-out] PostgreSQL: ${ended} connections ended in 4 rounds, ${answers.length} polls, ` +
          `${answers.filter((a) => a.body !== 'ok').length} answered 数据库连接中断`,
      );
    });

    describe('an inference backend that hangs', () => {
      const CHECKPOINT = 'v1-5-pruned-emaonly.safetensors [6ce0161689]';
      const doubles: A1111Double[] = [];
      const proxies: FreezingProxy[] = [];
      afterAll(async () => {
        for (const proxy of proxies) await proxy.close();
        for (const double of doubles) await double.close();
      });

      it('times out after BACKEND_TIMEOUT_SECONDS, runs on the other backend, and shows healthy:false', async () => {
        explainFailures();
        const admin = { token };
        // Whichever backend receives the first generation hangs from then on, health checks included.
        let hung = false;
        const freezeFirstGeneration = (data: Buffer) => {
          if (hung || !data.includes('POST /sdapi/v1/txt2img')) return false;
          hung = true;
          return true;
        };
        const backendIds: string[] = [];
        for (const name of ['东区 A1111', '西区 A1111']) {
          const double = await startA1111Double({ stepDelayMs: 10 });
          doubles.push(double);
          const proxy = await FreezingProxy.start(double.url, freezeFirstGeneration);
          proxies.push(proxy);
          const res = await api(0).call('POST', '/api/admin/backends', {
            ...admin,
            body: { name, kind: 'sdwebui', baseUrl: proxy.url, models: [CHECKPOINT], enabled: true },
          });
          expect(res.body, res.body.msg).toMatchObject({ code: 0, data: { healthy: true } });
          backendIds.push(res.body.data.id);
        }
        const modelId = await addModel(api(0), token, {
          group: 'GPU',
          modelName: 'SD 1.5 官方',
          engine: 'sdwebui',
          checkpoint: CHECKPOINT,
        });

        const start = await api(1).credits(token);
        const submittedAt = Date.now();
        const generateId = await api(1).submit(token, {
          modelId,
          width: 256,
          height: 256,
          steps: 10,
          batchSize: 2,
          seed: 600,
        });
        const { final, seen } = await api(0).waitForEnd(token, generateId);
        const tookMs = Date.now() - submittedAt;
        expect(final.status, final.message ?? '').toBe('succeeded');
        expect(seedsOf(final)).toEqual([600, 601]);
        expect(await api(1).credits(token)).toBe(start - 2);
        // Given up after the timeout (3 s), not the old 10 minutes, as a backend failure: one attempt counted.
        expect(tookMs).toBeLessThan(30_000);
        expect(seen.map((progress) => progress.status)).not.toContain('failed');
        const job = await jobOf(cluster, generateId);
        expect(job).toMatchObject({ attempts: 1, status: 'succeeded' });
        const failures = cluster.workers.flatMap((worker) =>
          worker.logLines().filter((line) => line.msg === 'backend failed' && line.jobId === job.id),
        );
        expect(failures.map((line) => line.err)).toEqual([expect.stringContaining('3 秒内没有响应')]);

        const hanging = proxies.findIndex((proxy) => proxy.frozen);
        expect(hanging).toBeGreaterThanOrEqual(0);
        const other = 1 - hanging;
        expect(doubles[hanging]!.jobs).toEqual([]);
        expect(doubles[other]!.jobs.map((job) => job.seeds)).toEqual([[600, 601]]);
        for (const i of [0, 1]) {
          const list = (await api(i).call('GET', '/api/admin/backends', admin)).body.data as any[];
          expect(list.find((b) => b.id === backendIds[hanging])).toMatchObject({ healthy: false });
          expect(list.find((b) => b.id === backendIds[other])).toMatchObject({ healthy: true });
        }
        expect(cluster.exited()).toEqual([]);
        console.log(
          `[scale-out] hanging backend: "${failures[0]!.err}", retried on the other backend, ` +
            `succeeded ${tookMs} ms after submit; the hanging one listed healthy:false by both API processes`,
        );
      });
    });
  },
);

/** Right after Redis is back the API processes may still answer 503 for a moment: polls until both serve. */
async function servingAgain(api: ApiProcess[], token: string, generateId: string): Promise<void> {
  await until('both API processes serve progress again', async () => {
    const answers = await Promise.all(api.map((a) => a.poll(token, generateId)));
    for (const answer of answers) {
      if (answer.body.code !== 0) expect(answer).toMatchObject({ status: 503, body: { msg: REDIS_UNAVAILABLE } });
    }
    return answers.every((answer) => answer.body.code === 0);
  });
}

describe.skipIf(problem !== null || redisServerProblem !== null)(
  'scale-out processes: Redis restarted under jobs',
  { timeout: TEST_TIMEOUT_MS },
  () => {
    let redis: RedisServer;
    let cluster: ScaleOutCluster;
    beforeAll(async () => {
      redis = await RedisServer.start();
      // Locks as short as allowed: a Redis away for a few seconds outlives them.
      cluster = await ScaleOutCluster.start({ redisUrl: redis.url, env: { ...CLUSTER_ENV, JOB_LOCK_SECONDS: '2' } });
    }, 90_000);
    afterAll(async () => {
      await cluster?.close();
      await redis?.close();
    });

    it('loses no queued job, and API processes and workers reconnect by themselves', async () => {
      onTestFailed(() => console.log(`${cluster.logs()}\n--- redis ---\n${redis.output.slice(-3000)}`));
      const api = cluster.apis;
      const token = await api[0]!.login();
      const start = await api[0]!.credits(token);
      const small = { width: 384, height: 384, steps: 20, batchSize: 2 };
      const generateIds: string[] = [];
      for (let i = 0; i < 5; i++) generateIds.push(await api[i % 2]!.submit(token, { ...small, seed: 1000 + 10 * i }));
      // Two run (one per worker), three wait in BullMQ.
      await api[0]!.waitForProgress(token, generateIds[0]!, 10);

      await redis.stop();
      const downAt = Date.now();
      await sleep(1000);
      await redis.launch();
      const downMs = Date.now() - downAt;
      await servingAgain(api, token, generateIds[0]!);

      for (const [i, generateId] of generateIds.entries()) {
        const { final } = await api[(i + 1) % 2]!.waitForEnd(token, generateId, 120_000);
        expect(final.status, final.message ?? '').toBe('succeeded');
        expect(seedsOf(final)).toEqual([1000 + 10 * i, 1001 + 10 * i]);
      }
      expect(await api[1]!.credits(token)).toBe(start - 2 * generateIds.length);
      const works = await cluster.query<{ count: string }>(
        `select count(*) from works w join generation_jobs j on j.id = w.job_id where j.generation_id = any($1)`,
        [generateIds],
      );
      expect(Number(works[0]!.count)).toBe(2 * generateIds.length);
      expect(cluster.exited()).toEqual([]);
      for (const worker of cluster.workers) {
        expect((await fetch(`${worker.baseUrl}/health`)).status).toBe(200);
      }
      // One more job after the restart: the whole path works again.
      const after = await api[1]!.submit(token, { ...small, steps: 10, seed: 2000 });
      expect((await api[0]!.waitForEnd(token, after)).final.status).toBe('succeeded');
      console.log(`[scale-out] Redis down ${downMs} ms: ${generateIds.length} jobs all succeeded, no process exited`);
    });

    it('Redis away longer than JOB_LOCK_SECONDS while one worker paints and the other idles: the job ends once, each image once', async () => {
      onTestFailed(() => console.log(`${cluster.logs()}\n--- redis ---\n${redis.output.slice(-3000)}`));
      const api = cluster.apis;
      const token = await api[0]!.login();
      const start = await api[0]!.credits(token);
      // About 15 s of painting: still going when Redis is back and the idle worker takes the job for stalled.
      const generateId = await api[0]!.submit(token, { width: 640, height: 640, steps: 50, batchSize: 4, seed: 3000 });
      const { id: jobId } = await jobOf(cluster, generateId);
      await api[0]!.waitForProgress(token, generateId, 5);
      await redis.stop();
      await sleep(4000);
      await redis.launch();
      await servingAgain(api, token, generateId);

      const { final } = await api[1]!.waitForEnd(token, generateId, 120_000);
      expect(final.status, final.message ?? '').toBe('succeeded');
      expect(seedsOf(final)).toEqual(range(3000, 4));
      // Started twice (the second run took the job over)? The first run then stops without keeping anything.
      const runs = () => cluster.workers.flatMap((worker) => worker.runsOf(jobId));
      const stopped = () =>
        cluster.workers.some((worker) =>
          worker
            .logLines()
            .some((line) => String(line.msg).startsWith('generation job taken over') && line.jobId === jobId),
        );
      await until('the run that was taken over stops', () => runs().length === 1 || stopped(), 60_000);
      const works = await cluster.query<{ seed: string }>(
        'select w.seed from works w join generation_jobs j on j.id = w.job_id where j.generation_id = $1 order by w.seed',
        [generateId],
      );
      expect(works.map((work) => Number(work.seed))).toEqual(range(3000, 4));
      expect((await api[0]!.progress(token, generateId)).images).toHaveLength(4);
      expect(await api[1]!.credits(token)).toBe(start - BATCH_COST);
      expect(cluster.exited()).toEqual([]);
      console.log(
        `[scale-out] Redis down > lock: ${runs().length} run(s) of the job${stopped() ? ', the first taken over and stopped' : ''}; ` +
          `4 works, credits ${start} → ${start - BATCH_COST}`,
      );
    });
  },
);
