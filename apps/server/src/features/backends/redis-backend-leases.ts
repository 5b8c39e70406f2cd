import type { Redis } from 'ioredis';
import type { BackendLeases } from './backend-leases.js';

/** Deletes or renews a lease only while it is still ours (a lease that expired may belong to another job now). */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0`;

/**
 * Scale-out mode: a remote backend runs one of our jobs at a time across all workers. A lease is a Redis key
 * holding the job id with an expiry the holder renews; when its worker dies, it expires and the backend is free.
 * A backend marked down stays out for every worker until a health check finds it up or the mark expires.
 */
export class RedisBackendLeases implements BackendLeases {
  private readonly mine = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly leaseMs: number,
    private readonly downMs: number,
  ) {
    this.timer = setInterval(() => void this.renew(), Math.max(500, Math.floor(leaseMs / 3)));
    this.timer.unref();
  }

  private leaseKey(backendId: string): string {
    return `${this.prefix}:lease:${backendId}`;
  }

  private downKey(backendId: string): string {
    return `${this.prefix}:down:${backendId}`;
  }

  async acquire(backendId: string, jobId: string): Promise<boolean> {
    const taken = await this.redis.set(this.leaseKey(backendId), jobId, 'PX', this.leaseMs, 'NX');
    if (taken) this.mine.set(backendId, jobId);
    return taken === 'OK';
  }

  async release(backendId: string, jobId: string): Promise<void> {
    this.mine.delete(backendId);
    await this.redis.eval(RELEASE, 1, this.leaseKey(backendId), jobId);
  }

  private async renew(): Promise<void> {
    for (const [backendId, jobId] of this.mine) {
      await this.redis.eval(RENEW, 1, this.leaseKey(backendId), jobId, this.leaseMs).catch(() => undefined);
    }
  }

  async held(backendIds: string[]): Promise<Set<string>> {
    if (backendIds.length === 0) return new Set();
    const values = await this.redis.mget(backendIds.map((id) => this.leaseKey(id)));
    return new Set(backendIds.filter((_, i) => values[i] !== null));
  }

  async markDown(backendId: string, message: string): Promise<void> {
    await this.redis.set(this.downKey(backendId), message, 'PX', this.downMs);
  }

  async clearDown(backendId: string): Promise<void> {
    await this.redis.del(this.downKey(backendId));
  }

  async downMarks(backendIds: string[]): Promise<Map<string, string>> {
    if (backendIds.length === 0) return new Map();
    const values = await this.redis.mget(backendIds.map((id) => this.downKey(id)));
    const marks = new Map<string, string>();
    backendIds.forEach((id, i) => {
      const message = values[i];
      if (message) marks.set(id, message);
    });
    return marks;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
  }
}
