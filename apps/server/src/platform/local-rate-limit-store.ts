import { createRequire } from 'node:module';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';

type StoreOptions = { continueExceeding?: boolean; exponentialBackoff?: boolean; cache?: number };
type CountCallback = Parameters<FastifyRateLimitStore['incr']>[1];

const PluginLocalStore = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding?: boolean,
  exponentialBackoff?: boolean,
  cache?: number,
) => FastifyRateLimitStore;

/**
 * @fastify/rate-limit's in-process store (one process, no Redis), answering each request with its own count. The
 * plugin's store hands every caller the one live counter, which the plugin reads after an await: requests that
 * arrive together all read the count of the last one, so a burst just over a limit was refused whole (8 parallel
 * requests under a limit of 5: all 8 refused instead of 3).
 */
export class LocalRateLimitStore implements FastifyRateLimitStore {
  private readonly store: FastifyRateLimitStore;

  constructor(options: StoreOptions) {
    this.store = new PluginLocalStore(options.continueExceeding, options.exponentialBackoff, options.cache);
  }

  incr(key: string, callback: CountCallback, timeWindow: number, max: number): void {
    this.store.incr(
      key,
      (err, count) => callback(err, count && { current: count.current, ttl: count.ttl }),
      timeWindow,
      max,
    );
  }

  /** A route's own counters; the plugin passes the route's merged limit options (typed as its route options). */
  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): LocalRateLimitStore {
    return new LocalRateLimitStore(routeOptions as StoreOptions);
  }
}
