import { DelayedError, type Job, Queue, WaitingError, Worker } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { newId } from '../../platform/ids.js';
import type { RedisFeed } from '../../platform/redis/redis-feed.js';
import type { Backend, BackendPool } from '../backends/backend-pool.js';
import { BackendWaiters } from './backend-waiters.js';
import type { GenerationRepository, JobRow } from './generation.repository.js';
import { GoneWorkerWatch } from './gone-worker-watch.js';
import type { InterruptChannel } from './interrupt-channel.js';
import type { JobLifecycle } from './job-lifecycle.js';
import { queueItemOf } from './job-payload.js';
import {
  type JobOutcome,
  type JobQueue,
  type QueueHealth,
  type QueueItem,
  type QueueLimits,
  type QueueStanding,
  SHUTDOWN,
} from './job-queue.js';
import { QueueStandings } from './queue-standings.js';

const QUEUE_NAME = 'generation';

type JobData = { jobId: string };

/** BullMQ refuses custom ids that look like integers; ours never do with this prefix. */
const bullId = (jobId: string) => `job-${jobId}`;

/**
 * Scale-out mode: generation jobs go through BullMQ on Redis, run by any number of worker processes. The
 * database row stays the durable record; each user's backlog waits in the database and BullMQ is handed at most
 * the user's running quota at a time, so BullMQ's first-in-first-out order already takes turns between users
 * and no user runs more than the quota. A worker killed mid-job loses its lock and BullMQ hands the job to
 * another worker (stalled-job handling), which paints only the images still missing; one whose process is gone
 * loses it sooner (GoneWorkerWatch). Places in line live in Redis (QueueStandings).
 */
export class BullJobQueue implements JobQueue {
  private readonly queue: Queue<JobData>;
  private worker: Worker<JobData> | null = null;
  private readonly running = new Map<string, AbortController>();
  private readonly waiters: BackendWaiters;
  private readonly standings: QueueStandings;
  private readonly goneWorkers: GoneWorkerWatch;
  private sweepTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** This worker's name in BullMQ (a job's `processedBy`) and at the end of its presence connection's name. */
  private readonly name = newId();
  /** Jobs this worker holds now (taken from BullMQ and not yet ended or left). */
  private taken = 0;
  /**
   * Settles when the job taken last has tried for a backend. Jobs taken together (concurrency above one) would
   * otherwise race for a free backend, and a user's later job could overtake another user's turn.
   */
  private leaseTurn: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: {
      redis: Redis;
      /** Reads of the progress polls (standings), pipelined. */
      polls: Redis;
      /** API processes: the published rewrites of the standings, mirrored so polls read them from memory. */
      feed?: RedisFeed | null;
      prefix: string;
      /** An API process only adds, cancels and reads standings; a worker runs jobs. */
      role: 'api' | 'worker';
      pool: BackendPool;
      lifecycle: JobLifecycle;
      repo: GenerationRepository;
      interrupts: InterruptChannel;
      limits: QueueLimits;
      worker: { concurrency: number; lockMs: number };
      shutdownGraceMs: number;
      log: FastifyBaseLogger;
    },
  ) {
    const { redis, polls, feed, prefix, repo, pool, limits, log } = deps;
    this.queue = new Queue<JobData>(QUEUE_NAME, { connection: redis, prefix: `${prefix}:bull` });
    this.queue.on('error', (err) => log.warn({ err: err.message }, 'BullMQ queue error'));
    this.waiters = new BackendWaiters({ pool, log });
    this.standings = new QueueStandings({ redis, polls, feed, prefix, repo, pool, limits, log });
    this.goneWorkers = new GoneWorkerWatch({
      redis,
      queue: this.queue,
      queueKey: `${prefix}:bull:${QUEUE_NAME}`,
      prefix,
      name: this.name,
      lifecycle: deps.lifecycle,
      log,
    });
  }

  get limits(): QueueLimits {
    return this.deps.limits;
  }

  async start(): Promise<void> {
    if (this.deps.role !== 'worker') return;
    const { worker: options, prefix, redis, log } = this.deps;
    this.worker = new Worker<JobData>(QUEUE_NAME, (job, token) => this.process(job, token), {
      connection: redis,
      prefix: `${prefix}:bull`,
      concurrency: options.concurrency,
      lockDuration: options.lockMs,
      stalledInterval: options.lockMs,
      // A job whose workers keep dying is still the user's: it is never failed for that.
      maxStalledCount: 1000,
      name: this.name,
    });
    this.goneWorkers.start();
    this.worker.on('error', (err) => log.warn({ err: err.message }, 'BullMQ worker error'));
    await this.sweep();
    this.sweepTimer = setInterval(() => {
      this.sweep().catch((err: unknown) => log.warn({ err }, 'queue sweep failed'));
    }, options.lockMs);
    this.sweepTimer.unref();
  }
  /**
   * Whatever a crash between two steps left undone: jobs handed out but missing from BullMQ go back in, and
   * users with room get their next jobs. BullMQ ignores an id it already holds, so this is safe to repeat.
   */
  private async sweep(): Promise<void> {
    for (const row of await this.deps.repo.handedUnfinished()) {
      if (!(await this.queue.getJob(bullId(row.id)))) await this.push(row.id);
    }
    for (const userId of await this.deps.repo.usersWithBacklog()) await this.handOver(userId);
    await this.standings.refresh();
  }

  private async push(jobId: string): Promise<void> {
    await this.queue.add(
      'generation',
      { jobId },
      { jobId: bullId(jobId), removeOnComplete: true, removeOnFail: true, attempts: 1 },
    );
  }

  /** Gives BullMQ the user's next jobs while the user has room under the running quota. */
  private async handOver(userId: string): Promise<void> {
    for (const jobId of await this.deps.repo.handOver(userId, this.deps.limits.maxRunningPerUser)) {
      await this.push(jobId);
    }
  }

  /** One PING on the polls' connection, which fails fast in an API process (a 503 before anything is charged). */
  async reachable(): Promise<void> {
    await this.deps.polls.ping();
  }

  async add(item: QueueItem): Promise<void> {
    await this.handOver(item.userId);
    await this.standings.refresh(true);
  }

  async cancel(jobId: string, userId: string): Promise<boolean> {
    const row = await this.deps.repo.findJob(jobId);
    if (row?.status !== 'queued') return false;
    if (row.handed_at) {
      const job = await this.queue.getJob(bullId(jobId));
      // A worker holds it (its lock refuses the removal): the interrupt reaches it there instead.
      if (
        job &&
        !(await job.remove().then(
          () => true,
          () => false,
        ))
      ) {
        return false;
      }
    }
    const settled = await this.deps.lifecycle.cancelWaiting(jobId);
    if (settled) {
      await this.handOver(userId);
      await this.standings.refresh(true);
    }
    return settled;
  }

  private async process(job: Job<JobData>, token: string | undefined): Promise<void> {
    const { repo, interrupts, log } = this.deps;
    const earlier = this.leaseTurn;
    let myTurnDone = () => {};
    this.leaseTurn = new Promise((resolve) => (myTurnDone = resolve));
    let row: JobRow | undefined;
    let first: Backend | null;
    try {
      row = await repo.findJob(job.data.jobId);
      if (!row || (row.status !== 'queued' && row.status !== 'running')) {
        if (row) await this.handOver(row.user_id);
        return;
      }
      await earlier;
      first = await this.takeIfRunnable(job, token, queueItemOf(row));
    } finally {
      myTurnDone();
    }
    let item: QueueItem;
    let outcome: JobOutcome;
    let ran = false;
    const startedAt = Date.now();
    try {
      // Started before by a worker that died or stopped: shows the images it kept and paints only the rest.
      item = row.status === 'running' ? await this.deps.lifecycle.recover(row) : queueItemOf(row);
      const controller = new AbortController();
      const unwatch = await interrupts.watch(item.jobId, controller);
      this.running.set(item.jobId, controller);
      ran = true;
      try {
        outcome = await this.runOnBackends(item, controller.signal, first);
      } finally {
        unwatch();
        this.running.delete(item.jobId);
      }
    } catch (err) {
      // Failed before the run began: the backend taken for it goes back (a run releases its own).
      if (first && !ran) await this.deps.pool.release(first, row.id).catch(() => undefined);
      throw err;
    } finally {
      this.taken--;
      // A job ended here: take jobs up to the configured number again (takeIfRunnable lowers it).
      if (this.worker) this.worker.concurrency = this.deps.worker.concurrency;
    }
    if (outcome === 'requeue') {
      // Stopping: the job goes back to BullMQ for another worker (the row already waits again).
      log.info({ jobId: item.jobId }, 'generation job handed back to the queue');
      await job.moveToDelayed(Date.now() + 500, token);
      throw new DelayedError();
    }
    if (outcome === 'succeeded') await this.standings.measure((Date.now() - startedAt) / 1000 / item.units);
    await this.handOver(item.userId).catch((err: unknown) => log.warn({ err }, 'hand-over after a job failed'));
    // Not awaited: the slot takes the next job while the standings are rewritten (close() waits for them).
    void this.standings.refresh();
  }

  /**
   * A worker takes only what it can run now. Every job tries for a backend at once; one that finds none while this
   * worker holds other jobs goes straight back to BullMQ (`moveToWait`: it is taken next) for a worker with a free
   * backend, and this worker takes no more until one of its jobs ends. A worker's only job waits here for a
   * backend as before (any other worker would wait as well). The backend leased here is the job's first.
   */
  private async takeIfRunnable(job: Job<JobData>, token: string | undefined, item: QueueItem): Promise<Backend | null> {
    this.taken++;
    const backend = await this.deps.pool
      .lease(item.engineKind, item.checkpoint, item.jobId, item.tried, item.loras)
      .catch(() => null);
    if (backend || this.taken === 1) return backend;
    this.taken--;
    if (this.worker) this.worker.concurrency = Math.max(1, this.taken);
    this.deps.log.info({ jobId: item.jobId }, 'no backend free on this worker: job left for another');
    await job.moveToWait(token);
    throw new WaitingError();
  }

  /** Leases a backend (unless given one) and runs the job on it; a backend that fails sends the job to another. */
  private async runOnBackends(item: QueueItem, signal: AbortSignal, first: Backend | null): Promise<JobOutcome> {
    const speed = await this.standings.secondsPerUnit();
    let leased = first;
    for (;;) {
      const backend = leased ?? (await this.waiters.lease(item, signal));
      leased = null;
      if (!backend) {
        if (signal.reason === SHUTDOWN) return 'requeue';
        // Interrupted while waiting for a backend: settled like a job that never left the line.
        await this.deps.lifecycle.cancelWaiting(item.jobId, ['queued', 'running']);
        return 'interrupted';
      }
      let outcome: JobOutcome;
      try {
        outcome = await this.deps.lifecycle.run(item, backend, {
          signal,
          etaSeconds: Math.ceil(item.units * speed),
          started: () => void this.standings.refresh(),
        });
      } finally {
        await this.deps.pool.release(backend, item.jobId).catch(() => undefined);
      }
      if (outcome !== 'retry') return outcome;
    }
  }

  standing(job: { jobId: string; generateId: string }): Promise<QueueStanding> {
    return this.standings.standing(job);
  }

  predict(
    userId: string,
    job: Pick<QueueItem, 'units' | 'engineKind' | 'checkpoint' | 'loras'>,
  ): Promise<QueueStanding> {
    return this.standings.predict(userId, job);
  }

  async health(): Promise<QueueHealth> {
    const [counts, workers] = await Promise.all([
      this.queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed'),
      this.queue.getWorkersCount(),
    ]);
    const count = (state: string) => counts[state] ?? 0;
    return {
      waiting: count('waiting') + count('prioritized'),
      active: count('active'),
      delayed: count('delayed'),
      failed: count('failed'),
      workers,
    };
  }

  async stats(): Promise<{ waiting: number; running: number }> {
    const jobs = await this.deps.repo.waitingAndRunning();
    const running = jobs.filter((job) => job.status === 'running').length;
    return { waiting: jobs.length - running, running };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweepTimer);
    this.goneWorkers.stopLooking();
    this.waiters.close();
    if (this.worker) {
      // Takes no new job; running ones get the grace period, then stop and go back to BullMQ.
      const closing = this.worker.close();
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([closing, new Promise((resolve) => (grace = setTimeout(resolve, this.deps.shutdownGraceMs)))]);
      clearTimeout(grace);
      this.stopRunning();
      await closing;
    }
    await this.standings.close();
    await this.queue.close();
    this.goneWorkers.close();
    await this.deps.lifecycle.close();
  }

  stopRunning(): void {
    for (const controller of this.running.values()) controller.abort(SHUTDOWN);
  }
}
