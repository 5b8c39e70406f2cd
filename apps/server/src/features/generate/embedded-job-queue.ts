import type { FastifyBaseLogger } from 'fastify';
import type { Backend, BackendPool } from '../backends/backend-pool.js';
import type { GenerationRepository } from './generation.repository.js';
import type { InterruptChannel } from './interrupt-channel.js';
import type { JobLifecycle } from './job-lifecycle.js';
import { type JobQueue, type QueueItem, type QueueLimits, type QueueStanding, SHUTDOWN } from './job-queue.js';
import {
  etaSeconds,
  INITIAL_SECONDS_PER_UNIT,
  nextSecondsPerUnit,
  secondsLeft,
  TurnTakingLine,
} from './turn-taking.js';

type Running = { item: QueueItem; backend: Backend; controller: AbortController; startedAt: number };

/**
 * The embedded queue: jobs persisted in the database, dispatched in this process. Users take turns
 * (round-robin), each with at most maxRunningPerUser jobs running; a job goes to a free healthy backend
 * serving its model; a backend failure puts the job back at the front of its user's line for another backend.
 */
export class EmbeddedJobQueue implements JobQueue {
  private readonly line = new TurnTakingLine<QueueItem>();
  private readonly running = new Map<string, Running>();
  private readonly runningPerUser = new Map<string, number>();
  private readonly settling = new Set<Promise<void>>();
  private secondsPerUnit = INITIAL_SECONDS_PER_UNIT;
  private started = false;
  private closed = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly deps: {
      pool: BackendPool;
      lifecycle: JobLifecycle;
      interrupts: InterruptChannel;
      repo: GenerationRepository;
      limits: QueueLimits;
      /** On shutdown, how long running jobs may still take to finish before they stop and wait for the restart. */
      shutdownGraceMs: number;
      log: FastifyBaseLogger;
    },
  ) {
    this.unsubscribe = deps.pool.onAvailable(() => this.dispatch());
  }

  get limits(): QueueLimits {
    return this.deps.limits;
  }

  /** Puts the jobs a previous process left back in line (submit order), then starts dispatching. */
  async start(): Promise<void> {
    for (const row of await this.deps.repo.unfinishedJobs()) this.line.add(await this.deps.lifecycle.recover(row));
    this.started = true;
    this.dispatch();
  }

  /** The queue is this process's memory: always there. */
  async reachable(): Promise<void> {}

  async add(item: QueueItem): Promise<void> {
    this.line.add(item);
    this.dispatch();
  }

  async health(): Promise<null> {
    return null;
  }

  async stats(): Promise<{ waiting: number; running: number }> {
    return { waiting: this.line.size, running: this.running.size };
  }

  private runningCount(userId: string): number {
    return this.runningPerUser.get(userId) ?? 0;
  }

  async standing({ jobId }: { jobId: string }): Promise<QueueStanding> {
    const item = this.line.find(jobId);
    if (!item) return { queuePosition: 0, etaSeconds: 0 };
    const queuePosition = this.line.position(jobId);
    return { queuePosition, etaSeconds: this.eta(item, queuePosition) };
  }

  async predict(
    userId: string,
    job: Pick<QueueItem, 'units' | 'engineKind' | 'checkpoint' | 'loras'>,
  ): Promise<QueueStanding> {
    const queuePosition = this.line.positionIfAdded(userId);
    return { queuePosition, etaSeconds: this.eta(job, queuePosition) };
  }

  private eta(item: Pick<QueueItem, 'units' | 'engineKind' | 'checkpoint' | 'loras'>, position: number): number {
    const now = Date.now();
    const runningLeftSeconds = [...this.running.values()].reduce(
      (sum, run) => sum + secondsLeft(run.item.units * this.secondsPerUnit, (now - run.startedAt) / 1000),
      0,
    );
    return etaSeconds({
      position,
      units: item.units,
      secondsPerUnit: this.secondsPerUnit,
      capacity: this.deps.pool.capacity(item.engineKind, item.checkpoint, item.loras),
      runningLeftSeconds,
    });
  }

  async cancel(jobId: string): Promise<boolean> {
    return this.line.remove(jobId) !== null && (await this.deps.lifecycle.cancelWaiting(jobId));
  }

  private dispatch(): void {
    if (this.closed || !this.started) return;
    const { pool, limits } = this.deps;
    for (;;) {
      const taken = this.line.take((item) =>
        this.runningCount(item.userId) >= limits.maxRunningPerUser
          ? null
          : pool.occupyFree(item.engineKind, item.checkpoint, item.jobId, item.tried, item.loras),
      );
      if (!taken) return;
      this.run(taken.item, taken.started);
    }
  }

  private run(item: QueueItem, backend: Backend): void {
    const controller = new AbortController();
    const startedAt = Date.now();
    this.running.set(item.jobId, { item, backend, controller, startedAt });
    this.runningPerUser.set(item.userId, this.runningCount(item.userId) + 1);
    const settled = this.deps.interrupts
      .watch(item.jobId, controller)
      .then(async (unwatch) => {
        try {
          return await this.deps.lifecycle.run(item, backend, {
            signal: controller.signal,
            etaSeconds: Math.ceil(item.units * this.secondsPerUnit),
          });
        } finally {
          unwatch();
        }
      })
      .then(async (outcome) => {
        if (outcome === 'succeeded') {
          this.secondsPerUnit = nextSecondsPerUnit(this.secondsPerUnit, (Date.now() - startedAt) / 1000 / item.units);
        }
        if (outcome !== 'retry') return;
        if (this.closed) await this.deps.lifecycle.requeueForRestart(item);
        else this.line.add(item, true);
      })
      // A settle that fails (the database gone) leaves the row for recovery at the next start; it must not end the process.
      .catch((err: unknown) => this.deps.log.error({ err, jobId: item.jobId }, 'settling a generation job failed'))
      .finally(async () => {
        this.settling.delete(settled);
        this.running.delete(item.jobId);
        this.runningPerUser.set(item.userId, this.runningCount(item.userId) - 1);
        await this.deps.pool.release(backend, item.jobId);
      });
    this.settling.add(settled);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe();
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.settling]),
      new Promise((resolve) => {
        grace = setTimeout(resolve, this.deps.shutdownGraceMs);
      }),
    ]);
    clearTimeout(grace);
    this.stopRunning();
    await Promise.allSettled([...this.settling]);
    await this.deps.lifecycle.close();
  }

  stopRunning(): void {
    for (const run of this.running.values()) run.controller.abort(SHUTDOWN);
  }
}
