import type { FastifyBaseLogger } from 'fastify';
import type { Backend, BackendPool } from '../backends/backend-pool.js';
import type { QueueItem } from './job-queue.js';

/** How often a worker waiting for a free backend looks again. */
const LEASE_POLL_MS = 250;

/** A job of this worker waiting for a free backend: served in the order they came. */
type Waiter = { item: QueueItem; signal: AbortSignal; resolve: (backend: Backend | null) => void };

/**
 * Scale-out workers: the jobs of this worker waiting for a backend lease. Free backends are offered oldest job
 * first, one round at a time, again whenever the pool says one may be free here, and every LEASE_POLL_MS while
 * jobs wait (another worker may have released one).
 */
export class BackendWaiters {
  private readonly waiters: Waiter[] = [];
  private leasing: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly deps: {
      pool: BackendPool;
      log: FastifyBaseLogger;
    },
  ) {
    this.unsubscribe = deps.pool.onAvailable(() => this.offer());
  }

  /** Waits for a backend serving the job, behind the jobs of this worker that waited longer; null once aborted. */
  lease(item: QueueItem, signal: AbortSignal): Promise<Backend | null> {
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
      this.offer();
    });
  }

  private offer(): void {
    if (this.leasing) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    const { pool, log } = this.deps;
    this.leasing = (async () => {
      do {
        this.again = false;
        for (const waiter of [...this.waiters]) {
          if (waiter.signal.aborted) continue;
          const { item } = waiter;
          const backend = await pool
            .lease(item.engineKind, item.checkpoint, item.jobId, item.tried, item.loras)
            .catch((err: unknown) => {
              log.warn({ err }, 'leasing a backend failed');
              return null;
            });
          if (!backend) continue;
          const index = this.waiters.indexOf(waiter);
          // Interrupted or stopped while the lease was being taken: the backend goes back at once.
          if (index < 0) {
            await pool.release(backend, item.jobId).catch(() => undefined);
            continue;
          }
          this.waiters.splice(index, 1);
          waiter.resolve(backend);
        }
      } while (this.again);
    })().finally(() => {
      this.leasing = null;
      if (this.waiters.length > 0 && !this.closed) this.timer = setTimeout(() => this.offer(), LEASE_POLL_MS);
    });
  }

  close(): void {
    this.closed = true;
    this.unsubscribe();
    clearTimeout(this.timer);
  }
}
