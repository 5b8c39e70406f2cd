import type { FastifyBaseLogger } from 'fastify';
import { Redis, type RedisOptions } from 'ioredis';

/**
 * A Redis connection of scale-out mode. Commands wait through a reconnect instead of failing after a few tries
 * (BullMQ requires `maxRetriesPerRequest: null`), so a restarted Redis costs a pause, not lost work. `options` override
 * that for connections that must fail fast instead (rate limits).
 */
export function connectRedis(url: string, name: string, log?: FastifyBaseLogger, options: RedisOptions = {}): Redis {
  const redis = new Redis(url, {
    connectionName: `huafang:${name}`,
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    // At most 1 s between tries: a Redis that is back serves again within about a second.
    retryStrategy: (times) => Math.min(times * 200, 1000),
    ...options,
  });
  let down = false;
  redis.on('error', (err) => {
    if (down) return;
    down = true;
    log?.warn({ err: err.message, connection: name }, 'Redis connection lost; reconnecting');
  });
  redis.on('ready', () => {
    if (down) log?.info({ connection: name }, 'Redis connection back');
    down = false;
  });
  return redis;
}

/**
 * A connection that requests (and health probes) use: with Redis away a command is refused at once (no offline
 * queue, no retry), and one that Redis leaves unanswered (a frozen server) fails after COMMAND_TIMEOUT_MS, so the
 * request answers 503 (see isRedisUnavailable) instead of waiting for Redis. Not for BullMQ workers.
 */
export const FAIL_FAST: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  commandTimeout: 1_000,
  connectTimeout: 2_000,
};

/** ioredis's refusals of a fail-fast connection while Redis is away (no code of their own: matched by text). */
const UNAVAILABLE =
  /^(Stream isn't writeable and enableOfflineQueue options is false|Command timed out|Connection is closed\.|Reached the max retries per request limit)/;

/** Whether a failure means Redis could not be reached, as opposed to a wrong command. */
export function isRedisUnavailable(err: unknown): boolean {
  return err instanceof Error && (err.name === 'MaxRetriesPerRequestError' || UNAVAILABLE.test(err.message));
}

/**
 * Waits (at most `ms`) until the connection is ready: a fail-fast connection refuses commands before that, so a
 * process waits for it at start rather than answering its first requests 503. Redis still away: starts anyway.
 */
export function untilReady(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, ms);
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
  });
}
