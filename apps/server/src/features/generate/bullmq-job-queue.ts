import { DelayedError, type Job, Queue, WaitingError, Worker } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { newId } from '../../platform/ids.js';
import type { Backend, BackendPool } from '../backends/backend-pool.js';
import type { GenerationRepository } from './generation.repository.js';
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
import { etaSeconds, INITIAL_SECONDS_PER_UNIT, nextSecondsPerUnit, TurnTakingLine } from './turn-taking.js';

const QUEUE_NAME = 'generation';
/** How often a worker waiting for a free backend looks again. */
const LEASE_POLL_MS = 250;
/**
 * Rewriting the standings reads the whole line from the database, so a worker starts one at most this often:
 * while jobs start and finish by the dozen a second, the changes of one such moment share one rewrite instead of
 * each reading the line again (places in line then trail such a change by at most this long). A submit or a
 * cancel does not wait: the user who made it looks at the line next.
 */
const LINE_REFRESH_GAP_MS = 200;
/**
 * How often a worker looks for jobs of workers that are gone. A worker is gone when the connection it keeps open
 * only to be seen (its presence) left Redis's client list: the OS closes a killed process's sockets at once.
 */
const PRESENCE_CHECK_MS = 1_000;
/** Looks in a row a worker must be missing: a connection re-made after a Redis restart is not taken for dead. */
const GONE_AFTER_LOOKS = 3;
/** What the user sees while a job of a worker that died waits for another. */
export const MOVING_MESSAGE = '原服务器已停止，正在转移到其他服务器…';
/** Standings are rewritten after every change; this keeps a stale copy from outliving a crashed writer. */
const LINE_TTL_MS = 10 * 60_000;

type JobData = { jobId: string };
/** A job of this worker waiting for a free backend: served in the order they came. */
type Waiter = { item: QueueItem; signal: AbortSignal; resolve: (backend: Backend | null) => void };
type LineRow = Awaited<ReturnType<GenerationRepository['waitingAndRunning']>>[number];
type LineJob = QueueItem & { handed: boolean; startedAt: string | null; running: boolean };

/** BullMQ refuses custom ids that look like integers; ours never do with this prefix. */
const bullId = (jobId: string) => `job-${jobId}`;

function lineJobOf(row: LineRow): LineJob {
  return {
    ...queueItemOf(row),
    handed: row.handed_at !== null,
    startedAt: row.started_at,
    running: row.status === 'running',
  };
}

/**
 * Scale-out mode: generation jobs go through BullMQ on Redis, run by any number of worker processes. The
 * database row stays the durable record; each user's backlog waits in the database and BullMQ is handed at most
 * the user's running quota at a time, so BullMQ's first-in-first-out order already takes turns between users
 * and no user runs more than the quota. A worker killed mid-job loses its lock and BullMQ hands the job to
 * another worker (stalled-job handling), which paints only the images still missing.
 *
 * Places in line are recomputed (from the database) whenever the line changes and kept in one Redis hash, so
 * a `progress` poll reads its standing without SQL.
 */
export class BullJobQueue implements JobQueue {
  private readonly queue: Queue<JobData>;
  private worker: Worker<JobData> | null = null;
  private readonly running = new Map<string, AbortController>();
  private readonly waiters: Waiter[] = [];
  private leasing: Promise<void> | null = null;
  private leaseAgain = false;
  private leaseTimer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private pendingLine: Promise<void> | null = null;
  private lineChain: Promise<void> = Promise.resolve();
  private lineWrittenAt = 0;
  /** A submit or cancel asked for the next rewrite: it does not wait for the gap. */
  private lineUrgent = false;
  /** Ends the pending rewrite's wait for the gap early. */
  private wakeLine: (() => void) | null = null;
  private closed = false;
  /** This worker's name in BullMQ (a job's `processedBy`) and at the end of its presence connection's name. */
  private readonly name = newId();
  private presence: Redis | null = null;
  private presenceTimer: NodeJS.Timeout | undefined;
  /** Owners of active jobs missing from the client list: how many looks in a row (GONE_AFTER_LOOKS means gone). */
  private missingOwners = new Map<string, number>();
  private lookingForGone = false;
  /** Jobs this worker holds now (taken from BullMQ and not yet ended or left). */
  private taken = 0;

  constructor(
    private readonly deps: {
      redis: Redis;
      /** Reads of the progress polls (standings), pipelined. */
      polls: Redis;
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
    this.queue = new Queue<JobData>(QUEUE_NAME, { connection: deps.redis, prefix: `${deps.prefix}:bull` });
    deps.pool.onAvailable = () => this.offerBackends();
    this.queue.on('error', (err) => deps.log.warn({ err: err.message }, 'BullMQ queue error'));
  }

  get limits(): QueueLimits {
    return this.deps.limits;
  }

  private get lineKey(): string {
    return `${this.deps.prefix}:line`;
  }

  private get presencePrefix(): string {
    return `huafang:presence:${this.deps.prefix}:`;
  }

  private get speedKey(): string {
    return `${this.deps.prefix}:seconds-per-unit`;
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
    this.presence = redis.duplicate({ connectionName: `${this.presencePrefix}${this.name}` });
    this.presence.on('error', () => undefined);
    this.presenceTimer = setInterval(() => {
      // One look at a time, and none while Redis is away (the commands would pile up until it is back).
      if (this.lookingForGone || redis.status !== 'ready') return;
      this.lookingForGone = true;
      this.moveJobsOfGoneWorkers()
        .catch((err: unknown) => log.warn({ err }, 'looking for gone workers failed'))
        .finally(() => {
          this.lookingForGone = false;
        });
    }, PRESENCE_CHECK_MS);
    this.presenceTimer.unref();
    this.worker.on('error', (err) => log.warn({ err: err.message }, 'BullMQ worker error'));
    await this.sweep();
    this.sweepTimer = setInterval(() => {
      this.sweep().catch((err: unknown) => log.warn({ err }, 'queue sweep failed'));
    }, options.lockMs);
    this.sweepTimer.unref();
  }

  /**
   * Active jobs whose worker is known dead (its presence connection is gone, GONE_AFTER_LOOKS looks in a row)
   * go back to the queue at once, instead of after their lock expires (JOB_LOCK_SECONDS): the user sees
   * MOVING_MESSAGE, then the next free worker resumes the job. A worker whose machine vanished without closing its
   * sockets still loses its jobs by the lock. Should a living worker be taken for dead (it reconnects just then),
   * the job's claim stops its run (see JobRequeue.recover), so nothing is painted or charged twice.
   */
  private async moveJobsOfGoneWorkers(): Promise<void> {
    const list = String(await this.deps.redis.client('LIST'));
    const alive = new Set<string>();
    for (const match of list.matchAll(/(?:^|\s)name=(\S+)/g)) {
      if (match[1]!.startsWith(this.presencePrefix)) alive.add(match[1]!.slice(this.presencePrefix.length));
    }
    // Not even this worker in the list: CLIENT LIST is filtered (an ACL, a cloud proxy) or this worker's presence is
    // reconnecting. Nothing can be told dead then; the locks still move what a dead worker held.
    if (!alive.has(this.name)) {
      this.missingOwners = new Map();
      return;
    }
    const missing = new Map<string, number>();
    for (const job of await this.queue.getActive()) {
      const owner = job.processedBy;
      if (!owner || alive.has(owner)) continue;
      const looks = missing.get(owner) ?? (this.missingOwners.get(owner) ?? 0) + 1;
      missing.set(owner, looks);
      if (looks < GONE_AFTER_LOOKS || !job.id) continue;
      // The dead worker's lock token lets the job leave `active`; no token: the lock expired, BullMQ moves it.
      const token = await this.deps.redis.get(`${this.deps.prefix}:bull:${QUEUE_NAME}:${job.id}:lock`);
      if (!token) continue;
      // Shown before the move: once moved, the next worker's writes must come after this one.
      await this.deps.lifecycle.moving(job.data.jobId, MOVING_MESSAGE);
      await job.moveToWait(token);
      this.deps.log.info({ jobId: job.data.jobId, worker: owner }, 'job of a gone worker moved back to the queue');
    }
    this.missingOwners = missing;
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
    await this.refreshLine();
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
    await this.refreshLine(true);
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
      await this.refreshLine(true);
    }
    return settled;
  }

  private async process(job: Job<JobData>, token: string | undefined): Promise<void> {
    const { repo, interrupts, log } = this.deps;
    const row = await repo.findJob(job.data.jobId);
    if (!row || (row.status !== 'queued' && row.status !== 'running')) {
      if (row) await this.handOver(row.user_id);
      return;
    }
    const first = await this.takeIfRunnable(job, token, queueItemOf(row));
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
    if (outcome === 'succeeded') await this.measure((Date.now() - startedAt) / 1000 / item.units);
    await this.handOver(item.userId).catch((err: unknown) => log.warn({ err }, 'hand-over after a job failed'));
    // Not awaited: the slot takes the next job while the standings are rewritten (close() waits for them).
    void this.refreshLine();
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
      .lease(item.engineKind, item.checkpoint, item.jobId, item.tried)
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
    const speed = await this.secondsPerUnit();
    let leased = first;
    for (;;) {
      const backend = leased ?? (await this.leaseBackend(item, signal));
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
          started: () => void this.refreshLine(),
        });
      } finally {
        await this.deps.pool.release(backend, item.jobId).catch(() => undefined);
      }
      if (outcome !== 'retry') return outcome;
    }
  }

  /** Waits for a backend serving the job, behind the jobs of this worker that waited longer. */
  private leaseBackend(item: QueueItem, signal: AbortSignal): Promise<Backend | null> {
    if (signal.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      const waiter: Waiter = { item, signal, resolve };
      this.waiters.push(waiter);
      signal.addEventListener(
        'abort',
        () => {
          const index = this.waiters.indexOf(waiter);
          if (index >= 0) this.waiters.splice(index, 1);
          resolve(null);
        },
        { once: true },
      );
      this.offerBackends();
    });
  }

  /**
   * Offers free backends to the waiting jobs, oldest first; runs one round at a time, again whenever a backend
   * is released here, and every LEASE_POLL_MS while jobs wait (another worker may have released one).
   */
  private offerBackends(): void {
    if (this.leasing) {
      this.leaseAgain = true;
      return;
    }
    clearTimeout(this.leaseTimer);
    this.leasing = (async () => {
      do {
        this.leaseAgain = false;
        for (const waiter of [...this.waiters]) {
          if (waiter.signal.aborted) continue;
          const { item } = waiter;
          const backend = await this.deps.pool
            .lease(item.engineKind, item.checkpoint, item.jobId, item.tried)
            .catch((err: unknown) => {
              this.deps.log.warn({ err }, 'leasing a backend failed');
              return null;
            });
          if (!backend) continue;
          const index = this.waiters.indexOf(waiter);
          // Interrupted or stopped while the lease was being taken: the backend goes back at once.
          if (index < 0) {
            await this.deps.pool.release(backend, item.jobId).catch(() => undefined);
            continue;
          }
          this.waiters.splice(index, 1);
          waiter.resolve(backend);
        }
      } while (this.leaseAgain);
    })().finally(() => {
      this.leasing = null;
      if (this.waiters.length > 0 && !this.closed) {
        this.leaseTimer = setTimeout(() => this.offerBackends(), LEASE_POLL_MS);
      }
    });
  }

  private async secondsPerUnit(): Promise<number> {
    const stored = Number(await this.deps.redis.get(this.speedKey));
    return stored > 0 ? stored : INITIAL_SECONDS_PER_UNIT;
  }

  private async measure(measured: number): Promise<void> {
    await this.deps.redis.set(this.speedKey, String(nextSecondsPerUnit(await this.secondsPerUnit(), measured)));
  }

  /**
   * Recomputes every waiting job's standing: the answer comes once a rewrite that started after the call is
   * written. Calls while one is pending share it; unless `urgent`, a rewrite waits until LINE_REFRESH_GAP_MS
   * after the last one began.
   */
  private refreshLine(urgent = false): Promise<void> {
    if (urgent) {
      this.lineUrgent = true;
      this.wakeLine?.();
    }
    if (this.pendingLine) return this.pendingLine;
    const run = this.lineChain
      .then(async () => {
        const wait = this.lineWrittenAt + LINE_REFRESH_GAP_MS - Date.now();
        if (wait > 0 && !this.lineUrgent && !this.closed) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, wait);
            this.wakeLine = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
        this.wakeLine = null;
        this.lineUrgent = false;
        this.pendingLine = null;
        this.lineWrittenAt = Date.now();
        return this.writeLine();
      })
      .catch((err: unknown) => this.deps.log.warn({ err }, 'queue standings not updated'));
    this.pendingLine = run;
    this.lineChain = run;
    return run;
  }

  /**
   * The line as users see it: jobs handed to BullMQ first (it runs them in order), then the backlogs taking
   * turns. ETAs spread the work ahead over the backends that can take each job.
   */
  private async line(): Promise<{
    waiting: LineJob[];
    position: (job: LineJob) => number;
    handedCount: number;
    backlog: TurnTakingLine<LineJob>;
    eta: (job: Pick<QueueItem, 'units' | 'engineKind' | 'checkpoint'>, position: number) => number;
    busy: Map<string, number>;
  }> {
    const jobs = (await this.deps.repo.waitingAndRunning()).map(lineJobOf);
    const speed = await this.secondsPerUnit();
    const handed = jobs.filter((job) => job.handed && !job.running);
    const backlog = new TurnTakingLine<LineJob>();
    for (const job of jobs) if (!job.handed && !job.running) backlog.add(job);
    const busy = new Map<string, number>();
    for (const job of jobs) if (job.handed || job.running) busy.set(job.userId, (busy.get(job.userId) ?? 0) + 1);
    const now = Date.now();
    const runningLeftSeconds = jobs
      .filter((job) => job.running)
      .reduce((sum, job) => {
        const elapsed = job.startedAt ? (now - Date.parse(job.startedAt)) / 1000 : 0;
        return sum + Math.max(0, job.units * speed - elapsed);
      }, 0);
    const handedIndex = new Map(handed.map((job, i) => [job.jobId, i + 1]));
    return {
      waiting: jobs.filter((job) => !job.running),
      position: (job) => handedIndex.get(job.jobId) ?? handed.length + backlog.position(job.jobId),
      handedCount: handed.length,
      backlog,
      busy,
      eta: (job, position) =>
        etaSeconds({
          position,
          units: job.units,
          secondsPerUnit: speed,
          capacity: this.deps.pool.capacity(job.engineKind, job.checkpoint),
          runningLeftSeconds,
        }),
    };
  }

  private async writeLine(): Promise<void> {
    const { waiting, position, eta } = await this.line();
    const standings: Record<string, string> = {};
    for (const job of waiting) {
      const queuePosition = position(job);
      standings[job.generateId] = JSON.stringify({
        jobId: job.jobId,
        queuePosition,
        etaSeconds: eta(job, queuePosition),
      });
    }
    const write = this.deps.redis.multi().del(this.lineKey);
    if (waiting.length > 0) write.hset(this.lineKey, standings).pexpire(this.lineKey, LINE_TTL_MS);
    await write.exec();
  }

  async standing({ jobId, generateId }: { jobId: string; generateId: string }): Promise<QueueStanding> {
    const raw = await this.deps.polls.hget(this.lineKey, generateId);
    const standing = raw ? (JSON.parse(raw) as QueueStanding & { jobId: string }) : null;
    if (standing?.jobId !== jobId) return { queuePosition: 0, etaSeconds: 0 };
    return { queuePosition: standing.queuePosition, etaSeconds: standing.etaSeconds };
  }

  async predict(userId: string, job: Pick<QueueItem, 'units' | 'engineKind' | 'checkpoint'>): Promise<QueueStanding> {
    const line = await this.line();
    // With room under the quota the job goes straight to BullMQ, behind what it holds; else into the turns.
    const hasRoom = (line.busy.get(userId) ?? 0) < this.deps.limits.maxRunningPerUser;
    const queuePosition = line.handedCount + (hasRoom ? 1 : line.backlog.positionIfAdded(userId));
    return { queuePosition, etaSeconds: line.eta(job, queuePosition) };
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
    clearInterval(this.presenceTimer);
    clearTimeout(this.leaseTimer);
    if (this.worker) {
      // Takes no new job; running ones get the grace period, then stop and go back to BullMQ.
      const closing = this.worker.close();
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([closing, new Promise((resolve) => (grace = setTimeout(resolve, this.deps.shutdownGraceMs)))]);
      clearTimeout(grace);
      this.stopRunning();
      await closing;
    }
    this.wakeLine?.();
    await this.lineChain;
    await this.queue.close();
    this.presence?.disconnect();
    this.deps.lifecycle.close();
  }

  stopRunning(): void {
    for (const controller of this.running.values()) controller.abort(SHUTDOWN);
  }
}
