import type { Queue } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { JobLifecycle } from './job-lifecycle.js';

/**
 * How often a worker looks for jobs of workers that are gone. A worker is gone when the connection it keeps open
 * only to be seen (its presence) left Redis's client list: the OS closes a killed process's sockets at once.
 */
const PRESENCE_CHECK_MS = 1_000;
/** Looks in a row a worker must be missing: a connection re-made after a Redis restart is not taken for dead. */
const GONE_AFTER_LOOKS = 3;
/** What the user sees while a job of a worker that died waits for another. */
export const MOVING_MESSAGE = '原服务器已停止，正在转移到其他服务器…';

/**
 * Scale-out workers: each keeps a presence connection named after it, and watches the others'. Active jobs whose
 * worker is known dead (its presence connection is gone, GONE_AFTER_LOOKS looks in a row) go back to the queue at
 * once, instead of after their lock expires (JOB_LOCK_SECONDS): the user sees MOVING_MESSAGE, then the next free
 * worker resumes the job. A worker whose machine vanished without closing its sockets still loses its jobs by the
 * lock. Should a living worker be taken for dead (it reconnects just then), the job's claim stops its run (see
 * JobRequeue.recover), so nothing is painted or charged twice.
 */
export class GoneWorkerWatch {
  private presence: Redis | null = null;
  private timer: NodeJS.Timeout | undefined;
  /** Owners of active jobs missing from the client list: how many looks in a row (GONE_AFTER_LOOKS means gone). */
  private missingOwners = new Map<string, number>();
  private looking = false;

  constructor(
    private readonly deps: {
      redis: Redis;
      queue: Queue;
      /** The queue's keys in Redis (its BullMQ prefix and name), where a job's lock lives. */
      queueKey: string;
      prefix: string;
      /** This worker's name in BullMQ (a job's `processedBy`). */
      name: string;
      lifecycle: JobLifecycle;
      log: FastifyBaseLogger;
    },
  ) {}

  private get presencePrefix(): string {
    return `huafang:presence:${this.deps.prefix}:`;
  }

  start(): void {
    const { redis, log } = this.deps;
    this.presence = redis.duplicate({ connectionName: `${this.presencePrefix}${this.deps.name}` });
    this.presence.on('error', () => undefined);
    this.timer = setInterval(() => {
      // One look at a time, and none while Redis is away (the commands would pile up until it is back).
      if (this.looking || redis.status !== 'ready') return;
      this.looking = true;
      this.moveJobsOfGoneWorkers()
        .catch((err: unknown) => log.warn({ err }, 'looking for gone workers failed'))
        .finally(() => {
          this.looking = false;
        });
    }, PRESENCE_CHECK_MS);
    this.timer.unref();
  }

  private async moveJobsOfGoneWorkers(): Promise<void> {
    const list = String(await this.deps.redis.client('LIST'));
    const alive = new Set<string>();
    for (const match of list.matchAll(/(?:^|\s)name=(\S+)/g)) {
      if (match[1]!.startsWith(this.presencePrefix)) alive.add(match[1]!.slice(this.presencePrefix.length));
    }
    // Not even this worker in the list: CLIENT LIST is filtered (an ACL, a cloud proxy) or this worker's presence is
    // reconnecting. Nothing can be told dead then; the locks still move what a dead worker held.
    if (!alive.has(this.deps.name)) {
      this.missingOwners = new Map();
      return;
    }
    const missing = new Map<string, number>();
    for (const job of await this.deps.queue.getActive()) {
      const owner = job.processedBy;
      if (!owner || alive.has(owner)) continue;
      const looks = missing.get(owner) ?? (this.missingOwners.get(owner) ?? 0) + 1;
      missing.set(owner, looks);
      if (looks < GONE_AFTER_LOOKS || !job.id) continue;
      // The dead worker's lock token lets the job leave `active`; no token: the lock expired, BullMQ moves it.
      const token = await this.deps.redis.get(`${this.deps.queueKey}:${job.id}:lock`);
      if (!token) continue;
      // Shown before the move: once moved, the next worker's writes must come after this one.
      await this.deps.lifecycle.moving(job.data.jobId, MOVING_MESSAGE);
      await job.moveToWait(token);
      this.deps.log.info({ jobId: job.data.jobId, worker: owner }, 'job of a gone worker moved back to the queue');
    }
    this.missingOwners = missing;
  }

  /** Stops looking at the others (this worker is stopping); it is still seen until close. */
  stopLooking(): void {
    clearInterval(this.timer);
  }

  close(): void {
    this.stopLooking();
    this.presence?.disconnect();
  }
}
