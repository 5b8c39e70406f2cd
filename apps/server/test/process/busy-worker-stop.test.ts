import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { ScaleOutCluster, type WorkerProcess } from '../helpers/scale-out-cluster.js';
import { until } from '../helpers/server-process.js';
import { postgresReachable, redisReachable, redisUrl, requireServices } from '../helpers/services.js';

const problem = (await postgresReachable()) ?? (await redisReachable());
if (problem) {
  if (requireServices) throw new Error(`REQUIRE_SERVICES=1 and ${problem}`);
  console.warn(`[server-process] SKIPPED busy worker stop: ${problem}. Start PostgreSQL and Redis to run it.`);
}

const BUSY_EVENT_LOOP = pathToFileURL(path.resolve(import.meta.dirname, '../helpers/busy-event-loop.mjs')).href;
/** Four images that take the built-in engine a few seconds here: the signal lands between the first and the last. */
const BATCH = { width: 384, height: 384, steps: 24, batchSize: 4, seed: 700 };
/** What a batch of four costs (one credit per image up to 1024²). */
const BATCH_COST = 4;
const SHUTDOWN_GRACE_SECONDS = 2;

/**
 * The build under plain node, as the image runs it: a worker whose event loop is busy 200 ms at a time gets
 * SIGTERM mid-job. Nothing stands between the signal and the process's own handler (no tsx, no npm), so the
 * graceful stop runs: the job finishes within the grace period or goes back to the queue, and the worker exits 0.
 */
describe.skipIf(problem !== null)('SIGTERM to a compiled worker whose event loop is busy', { timeout: 180_000 }, () => {
  let cluster: ScaleOutCluster;

  beforeAll(async () => {
    cluster = await ScaleOutCluster.start({
      redisUrl,
      compiled: true,
      apis: 1,
      workers: 0,
      env: {
        JOB_LOCK_SECONDS: '3',
        WORKER_CONCURRENCY: '1',
        SHUTDOWN_GRACE_SECONDS: String(SHUTDOWN_GRACE_SECONDS),
      },
    });
  }, 90_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it('runs its graceful stop and exits 0; the job succeeds with every image, charged once', async () => {
    onTestFailed(() => console.log(cluster.logs()));
    const api = cluster.apis[0]!;
    const busy = await cluster.startWorker(['--import', BUSY_EVENT_LOOP]);
    expect(busy.output).toContain('busy-event-loop: the event loop is busy 200 ms at a time');
    const token = await api.login();
    const start = await api.credits(token);
    const generateId = await api.submit(token, BATCH);
    const [job] = await cluster.query<{ id: string }>('select id from generation_jobs where generation_id = $1', [
      generateId,
    ]);
    await until('the busy worker starts the job', () => busy.started(job!.id));
    await api.waitForProgress(token, generateId, 30);

    busy.signal('SIGTERM');
    // Another worker, for a job handed back: it starts after the signal, so the job cannot have gone to it before.
    const rescuer: WorkerProcess = await cluster.startWorker();
    const exitCode = await busy.exited;
    cluster.forget(busy);
    expect(exitCode, busy.output).toBe(0);
    expect(busy.output).toContain('收到 SIGTERM，worker 正在停止…');

    const { final, seen } = await api.waitForEnd(token, generateId);
    expect(final.status, final.message ?? '').toBe('succeeded');
    expect(seen.map((progress) => progress.status)).not.toContain('interrupted');
    expect(final.images.map((image) => image.seed)).toEqual([700, 701, 702, 703]);
    await api.expectWorks(final.images);
    expect(await api.credits(token)).toBe(start - BATCH_COST);
    const handedBack = busy.output.includes('generation job handed back to the queue');
    // Handed back: the other worker paints what is left, once; finished in the grace period: it never runs it.
    expect(rescuer.runsOf(job!.id).length).toBe(handedBack ? 1 : 0);
    console.log(
      `[busy-worker] SIGTERM to a worker busy 200 ms at a time: exit 0, job ${
        handedBack ? `handed back and finished by pid ${rescuer.pid}` : 'finished within the grace period'
      }; credits ${start} → ${start - BATCH_COST}`,
    );
  });
});
