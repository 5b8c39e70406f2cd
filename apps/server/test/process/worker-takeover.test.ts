import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { ScaleOutCluster, type WorkerProcess } from '../helpers/scale-out-cluster.js';
import { type Progress, until } from '../helpers/server-process.js';
import { postgresReachable, redisReachable, redisUrl, requireServices } from '../helpers/services.js';

const problem = (await postgresReachable()) ?? (await redisReachable());
if (problem) {
  if (requireServices) throw new Error(`REQUIRE_SERVICES=1 and ${problem}`);
  console.warn(`[server-process] SKIPPED worker takeover: ${problem}. Start PostgreSQL and Redis to run it.`);
}

const MOVING = '原服务器已停止，正在转移到其他服务器…';
/** Long enough that the other worker is still painting it when the killed worker's job is moved. */
const LONG = { width: 640, height: 640, steps: 50, batchSize: 4 };
const SHORT = { width: 384, height: 384, steps: 24, batchSize: 4 };
const seedsOf = (progress: Progress) => progress.images.map((image) => image.seed);

describe.skipIf(problem !== null)(
  'two workers with the built-in engine: each takes only what it can run; a killed one’s job moves at once',
  { timeout: 300_000 },
  () => {
    let cluster: ScaleOutCluster;
    beforeAll(async () => {
      // Each worker may hold 4 jobs (the default) but paints one at a time (its one built-in engine). A lock of
      // 10 minutes: only the dead worker's closed connection can make its job move within the test.
      cluster = await ScaleOutCluster.start({
        redisUrl,
        apis: 1,
        workers: 2,
        env: { JOB_LOCK_SECONDS: '600', WORKER_CONCURRENCY: '4', QUEUE_MAX_RUNNING_PER_USER: '4' },
      });
    }, 180_000);
    afterAll(async () => {
      await cluster?.close();
    });

    async function workerOf(jobId: string): Promise<WorkerProcess> {
      let found: WorkerProcess | undefined;
      await until(`a worker starts job ${jobId}`, () => {
        found = cluster.workers.find((worker) => worker.started(jobId));
        return found !== undefined;
      });
      return found!;
    }

    const jobIdOf = async (generateId: string) =>
      (await cluster.query<{ id: string }>('select id from generation_jobs where generation_id = $1', [generateId]))[0]!
        .id;

    it('two jobs submitted together run at the same time, one on each worker, instead of one after the other', async () => {
      onTestFailed(() => console.log(cluster.logs()));
      const api = cluster.apis[0]!;
      const token = await api.login();
      const [a, b] = await Promise.all([
        api.submit(token, { ...SHORT, seed: 10 }),
        api.submit(token, { ...SHORT, seed: 20 }),
      ]);
      await until('both jobs are running at once', async () => {
        const both = await Promise.all([api.progress(token, a), api.progress(token, b)]);
        expect(both.map((p) => p.status)).not.toContain('succeeded');
        return both.every((p) => p.status === 'running');
      });
      const [jobA, jobB] = [await jobIdOf(a), await jobIdOf(b)];
      expect(await workerOf(jobA)).not.toBe(await workerOf(jobB));
      for (const generateId of [a, b]) {
        expect((await api.waitForEnd(token, generateId)).final.status).toBe('succeeded');
      }
      // Each ran once, where it began.
      expect(cluster.workers.flatMap((w) => [...w.runsOf(jobA), ...w.runsOf(jobB)])).toHaveLength(2);
    });

    it('SIGKILL at ≥20%: progress says it is moving, the other worker finishes it with every image, charged once', async () => {
      onTestFailed(() => console.log(cluster.logs()));
      const api = cluster.apis[0]!;
      const token = await api.login();
      const start = await api.credits(token);
      const long = await api.submit(token, { ...LONG, seed: 100 });
      const busy = await workerOf(await jobIdOf(long));
      const short = await api.submit(token, { ...SHORT, seed: 200 });
      const shortJob = await jobIdOf(short);
      const victim = await workerOf(shortJob);
      expect(victim).not.toBe(busy);
      await api.waitForProgress(token, short, 20);
      await victim.stop('SIGKILL');
      cluster.forget(victim);

      // The other worker still paints the long job: the short one waits, saying why.
      let moving: Progress | undefined;
      await until('the killed worker’s job shows it is moving', async () => {
        const progress = await api.progress(token, short);
        if (progress.message === MOVING) moving = progress;
        return moving !== undefined || !['queued', 'running'].includes(progress.status);
      });
      expect(moving?.status).toBe('queued');
      // The message is written before the move, and the poll sees it at once: the move's log line may follow.
      await until('the busy worker logs the move', async () =>
        busy.output.includes('job of a gone worker moved back to the queue'),
      );

      const { final } = await api.waitForEnd(token, short, 150_000);
      expect(final.status, final.message ?? '').toBe('succeeded');
      expect(seedsOf(final)).toEqual([200, 201, 202, 203]);
      expect(busy.runsOf(shortJob)).toHaveLength(1);
      const longEnd = await api.waitForEnd(token, long, 150_000);
      expect(longEnd.final.status).toBe('succeeded');
      await api.expectWorks(final.images);
      expect(await api.credits(token)).toBe(start - 8);
      expect(cluster.exited()).toEqual([]);
    });
  },
);
