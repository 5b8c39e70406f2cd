import type { Redis } from 'ioredis';
import type { BackendLeases } from '../features/backends/backend-pool.js';
import type { EmbeddedJobQueue } from '../features/generate/embedded-job-queue.js';
import type { InterruptChannel } from '../features/generate/interrupt-channel.js';
import type { JobQueue } from '../features/generate/job-queue.js';
import type { ProgressStore } from '../features/generate/progress-store.js';
import type { Broadcast } from '../platform/broadcast/broadcast.js';
import type { SharedState } from '../platform/redis/shared-state.js';

/**
 * What this process is: the one process of embedded mode (API and jobs), or in scale-out mode an API process
 * (no jobs) or a worker (jobs, no API).
 */
export type ProcessRole = 'embedded' | 'api' | 'worker';

/** What every job queue is built from, whichever the mode. */
export type QueueDeps = ConstructorParameters<typeof EmbeddedJobQueue>[0];

/**
 * The seams of the generation pipeline whose implementation depends on the mode, built by one factory per mode
 * (`embeddedParts`, `scaleOutParts`). Storage is chosen by its own configuration (local disk or S3), not here.
 */
export type ModeParts = {
  readonly role: ProcessRole;
  /** Scale-out: remote backends leased across workers (Redis); embedded: one process needs none. */
  leases: BackendLeases | null;
  board: ProgressStore;
  interrupts: InterruptChannel;
  queue(deps: QueueDeps): JobQueue;
  /** What the health report checks besides the database and storage: Redis and BullMQ in scale-out mode. */
  health(queue: JobQueue): { probe: Redis; queue: JobQueue } | null;
  /**
   * Whether this process runs the present tick of a periodic task that must run once per tick: always in
   * embedded mode; in scale-out mode for the first worker to claim it (a Redis key that lasts the tick).
   */
  claimTick(task: string, intervalMs: number): Promise<boolean>;
};

/** A mode opened for one process: its parts, its connections and what API processes share. */
export type OpenedMode = {
  parts: ModeParts;
  /** Revocations and cache invalidations to every API process (in-process when embedded, Redis when scaled out). */
  bus: Broadcast;
  /** Scale-out API processes: the broadcast and rate-limit store they share through Redis. */
  shared: SharedState | null;
  /** Closes the mode's connections, after everything built on them. */
  close(): Promise<void>;
  /** Drops the connections at once (a start that failed). */
  abandon(): Promise<void>;
};
