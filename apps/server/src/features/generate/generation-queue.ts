import type { FastifyBaseLogger } from 'fastify';
import { EngineError } from '../../engines/engine.js';
import { BizError } from '../../platform/errors.js';
import type { Backend, BackendRegistry } from '../backends/backend-registry.js';
import type { JobRow } from './generation.repository.js';
import type { JobRunner } from './job-runner.js';
import type { ProgressBoard } from './progress-board.js';

export type QueueLimits = {
  /** Jobs of one user running at once. */
  maxRunningPerUser: number;
  /** Jobs of one user waiting at once; one more is refused with a clear message. */
  maxQueuedPerUser: number;
  /** Tries of a job on backends that fail (unreachable, 5xx, timeout) before it fails for good. */
  maxAttempts: number;
};

/** A waiting or running job as the queue keeps it in memory; the database row is the durable copy. */
export type QueueItem = {
  jobId: string;
  generateId: string;
  userId: string;
  engineKind: string;
  checkpoint: string;
  /** Work units (steps × images × size) for the ETA. */
  units: number;
  attempts: number;
  /** Backends that failed this job: others are preferred for the retry. */
  tried: Set<string>;
};

type Running = { item: QueueItem; backend: Backend; controller: AbortController; startedAt: number };

/** Seconds per work unit before any job has been measured (the built-in engine's order of magnitude). */
const INITIAL_SECONDS_PER_UNIT = 0.04;
export const SHUTDOWN = 'shutdown';
export const INTERRUPT = 'interrupt';

/**
 * The embedded queue: jobs persisted in the database, dispatched in this process. Users take turns
 * (round-robin), each with at most maxRunningPerUser jobs running; a job goes to a free healthy backend
 * serving its model; a backend failure retries the job elsewhere (bounded).
 */
export class GenerationQueue {
  private readonly waiting = new Map<string, QueueItem[]>();
  /** Users with waiting jobs in turn order; `cursor` is whose turn it is. */
  private rotation: string[] = [];
  private cursor = 0;
  private readonly running = new Map<string, Running>();
  private readonly runningPerUser = new Map<string, number>();
  private readonly settling = new Set<Promise<void>>();
  private secondsPerUnit = INITIAL_SECONDS_PER_UNIT;
  private closed = false;

  constructor(
    private readonly deps: {
      registry: BackendRegistry;
      runner: JobRunner;
      board: ProgressBoard;
      limits: QueueLimits;
      /** On shutdown, how long running jobs may still take to finish before they stop and wait for the restart. */
      shutdownGraceMs: number;
      log: FastifyBaseLogger;
    },
  ) {
    deps.registry.onAvailable = () => this.dispatch();
  }

  get limits(): QueueLimits {
    return this.deps.limits;
  }

  /** Puts the jobs a previous process left back in line (submit order), then starts dispatching. */
  async recover(rows: JobRow[]): Promise<void> {
    for (const row of rows) this.add(await this.deps.runner.recover(row));
    this.dispatch();
  }

  add(item: QueueItem, front = false): void {
    const list = this.waiting.get(item.userId) ?? [];
    if (front) list.unshift(item);
    else list.push(item);
    if (!this.waiting.has(item.userId)) {
      this.waiting.set(item.userId, list);
      // A user joining takes the turn just before the current one: everyone already waiting goes first.
      this.rotation.splice(this.cursor, 0, item.userId);
      this.cursor = (this.cursor + 1) % this.rotation.length;
    }
    this.dispatch();
  }

  /** For 数据看板: jobs waiting and running now. */
  stats(): { waiting: number; running: number } {
    let waiting = 0;
    for (const list of this.waiting.values()) waiting += list.length;
    return { waiting, running: this.running.size };
  }

  queuedCount(userId: string): number {
    return this.waiting.get(userId)?.length ?? 0;
  }

  runningCount(userId: string): number {
    return this.runningPerUser.get(userId) ?? 0;
  }

  /** 1-based place in line under round-robin (1 = next to run); 0 when not waiting. */
  position(jobId: string): number {
    const n = this.rotation.length;
    for (let turn = 0; turn < n; turn++) {
      const userId = this.rotation[(this.cursor + turn) % n]!;
      const index = this.waiting.get(userId)?.findIndex((item) => item.jobId === jobId) ?? -1;
      if (index < 0) continue;
      let ahead = 0;
      for (let other = 0; other < n; other++) {
        const length = this.waiting.get(this.rotation[(this.cursor + other) % n]!)?.length ?? 0;
        // Users earlier in this round get one more turn before ours comes.
        ahead += Math.min(length, other < turn ? index + 1 : index);
      }
      return ahead + 1;
    }
    return 0;
  }

  /** Where a new job of this user would land (predict): after everyone's jobs up to its own count. */
  positionIfAdded(userId: string): number {
    const own = this.queuedCount(userId);
    let ahead = own;
    for (const [other, list] of this.waiting) if (other !== userId) ahead += Math.min(list.length, own + 1);
    return ahead + 1;
  }

  etaOf(jobId: string, position: number): number {
    for (const list of this.waiting.values()) {
      const item = list.find((candidate) => candidate.jobId === jobId);
      if (item) return this.eta(item, position);
    }
    return 0;
  }

  /** Seconds until a job is done: the work ahead of it and its own, over the backends that can take it. */
  eta(
    item: Pick<QueueItem, 'jobId' | 'units' | 'engineKind' | 'checkpoint'>,
    position = this.position(item.jobId),
  ): number {
    const capacity = Math.max(1, this.deps.registry.capacity(item.engineKind, item.checkpoint));
    const runningLeft = [...this.running.values()].reduce(
      (sum, run) => sum + Math.max(0, run.item.units * this.secondsPerUnit - (Date.now() - run.startedAt) / 1000),
      0,
    );
    const ahead = Math.max(0, position - 1) * item.units * this.secondsPerUnit;
    return Math.ceil((ahead + runningLeft) / capacity + item.units * this.secondsPerUnit);
  }

  ownEta(units: number): number {
    return Math.ceil(units * this.secondsPerUnit);
  }

  /** Takes a waiting job out of line; false when it is not waiting (running or done). */
  cancel(jobId: string): boolean {
    for (const [userId, list] of this.waiting) {
      const index = list.findIndex((item) => item.jobId === jobId);
      if (index < 0) continue;
      list.splice(index, 1);
      if (list.length === 0) this.dropUser(userId);
      return true;
    }
    return false;
  }

  /** Stops a running job at its next step; what it finished is kept. */
  interrupt(jobId: string): boolean {
    const run = this.running.get(jobId);
    if (!run) return false;
    run.controller.abort(INTERRUPT);
    return true;
  }

  private dropUser(userId: string): void {
    this.waiting.delete(userId);
    const index = this.rotation.indexOf(userId);
    if (index < 0) return;
    this.rotation.splice(index, 1);
    if (index < this.cursor) this.cursor--;
    if (this.cursor >= this.rotation.length) this.cursor = 0;
  }

  private dispatch(): void {
    if (this.closed) return;
    let started = true;
    while (started && this.rotation.length > 0) {
      started = false;
      const n = this.rotation.length;
      for (let turn = 0; turn < n; turn++) {
        const index = (this.cursor + turn) % n;
        const userId = this.rotation[index]!;
        if (this.runningCount(userId) >= this.deps.limits.maxRunningPerUser) continue;
        const list = this.waiting.get(userId)!;
        const item = list[0]!;
        const backend = this.deps.registry.pickFree(item.engineKind, item.checkpoint, item.tried);
        if (!backend) continue;
        list.shift();
        if (list.length === 0) {
          this.waiting.delete(userId);
          this.rotation.splice(index, 1);
          this.cursor = this.rotation.length === 0 ? 0 : index % this.rotation.length;
        } else {
          this.cursor = (index + 1) % n;
        }
        this.start(item, backend);
        started = true;
        break;
      }
    }
  }

  private start(item: QueueItem, backend: Backend): void {
    const controller = new AbortController();
    this.deps.registry.occupy(backend, item.jobId);
    this.running.set(item.jobId, { item, backend, controller, startedAt: Date.now() });
    this.runningPerUser.set(item.userId, this.runningCount(item.userId) + 1);
    const settled = this.execute(item, backend, controller)
      // A settle that fails (the database gone) leaves the row for recovery at the next start; it must not end the process.
      .catch((err: unknown) => this.deps.log.error({ err, jobId: item.jobId }, 'settling a generation job failed'))
      .finally(() => {
        this.settling.delete(settled);
        this.running.delete(item.jobId);
        this.runningPerUser.set(item.userId, this.runningCount(item.userId) - 1);
        this.deps.registry.release(backend);
      });
    this.settling.add(settled);
  }

  private async execute(item: QueueItem, backend: Backend, controller: AbortController): Promise<void> {
    const { runner, log } = this.deps;
    const startedAt = Date.now();
    try {
      const outcome = await runner.run(item, backend, controller.signal, this.ownEta(item.units));
      if (outcome === 'requeue') return;
      if (outcome === 'succeeded') {
        const measured = (Date.now() - startedAt) / 1000 / item.units;
        this.secondsPerUnit = this.secondsPerUnit * 0.7 + measured * 0.3;
      }
    } catch (err) {
      if (controller.signal.reason === SHUTDOWN) {
        await runner.requeueForRestart(item).catch((e: unknown) => log.error({ err: e }, 'requeue on shutdown failed'));
        return;
      }
      if (err instanceof EngineError && err.retryable) {
        this.deps.registry.markDown(backend, err.message);
        item.attempts++;
        item.tried.add(backend.id);
        log.warn(
          { jobId: item.jobId, backend: backend.id, attempts: item.attempts, err: err.message },
          'backend failed',
        );
        // Retry only while some healthy backend can still take the job; with every one down, waiting helps nobody.
        const canRetry = this.deps.registry.capacity(item.engineKind, item.checkpoint) > 0;
        if (this.closed) {
          await runner.requeueForRestart(item);
          return;
        }
        if (item.attempts < this.deps.limits.maxAttempts && canRetry) {
          await runner.requeueAfterFailure(item, err.message);
          this.add(item, true);
          return;
        }
        await runner.fail(item, `推理后端暂时不可用（已尝试 ${item.attempts} 次），本次预扣的算力已退回，请稍后再试`);
        return;
      }
      const known = err instanceof EngineError || err instanceof BizError;
      const message = known ? err.message : '生成失败，请稍后再试；本次预扣的算力已退回';
      if (!known) log.error({ err, jobId: item.jobId }, 'generation job failed');
      await runner.fail(item, message).catch((e: unknown) => log.error({ err: e }, 'settling a failed job failed'));
    }
  }

  /**
   * Stops dispatching and gives running jobs the grace period to finish. Those still running then stop: their
   * finished images are kept and they wait in line in the database to paint the rest after the restart.
   */
  async close(): Promise<void> {
    this.closed = true;
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
    this.deps.runner.close();
  }

  /** Ends the grace period now (a second stop signal): running jobs stop and continue after the restart. */
  stopRunning(): void {
    for (const run of this.running.values()) run.controller.abort(SHUTDOWN);
  }
}
