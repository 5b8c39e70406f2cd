import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { RedisBroadcast } from '../broadcast/redis-broadcast.js';
import { connectRedis } from './redis.js';

/** What API processes of one deployment share through Redis: the broadcast of revocations and the rate limits. */
export type SharedState = {
  bus: RedisBroadcast;
  /** Options of @fastify/rate-limit: its Redis store on the fail-fast connection. */
  rateLimit: { redis: Redis; nameSpace: string; skipOnError: boolean };
  close(): Promise<void>;
};

/**
 * Two connections: commands (rate-limit counters and PUBLISH) and the broadcast subscription. The command
 * connection fails fast: with Redis away a command is refused at once (no offline queue) or after 500 ms (a
 * connection that stopped answering), and the request goes on; see docs/security.md § 多个 API 进程.
 * Waits up to `startupWaitMs` for the subscription, then starts anyway (caches stay off until Redis is back).
 */
export async function connectSharedState(
  url: string,
  prefix: string,
  log: FastifyBaseLogger,
  startupWaitMs = 5_000,
): Promise<SharedState> {
  const commands = connectRedis(url, 'api-commands', log, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    connectTimeout: 2_000,
  });
  const subscriber = connectRedis(url, 'api-subscriber', log, { autoResubscribe: false });
  const bus = new RedisBroadcast(commands, subscriber, log);
  if (!(await bus.untilLive(startupWaitMs))) {
    log.warn({ waitedMs: startupWaitMs }, 'Redis not reachable at start: serving without shared rate limits for now');
  }
  return {
    bus,
    // Redis away: the limited routes answer as without a limit rather than with a 500 (docs/security.md).
    // Keys of the counters: @fastify/rate-limit adds the route (method and URL) and the client key.
    rateLimit: { redis: commands, nameSpace: `${prefix}:rate-limit:`, skipOnError: true },
    async close() {
      bus.close();
      commands.disconnect();
      subscriber.disconnect();
    },
  };
}
