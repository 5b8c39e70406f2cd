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
    retryStrategy: (times) => Math.min(times * 200, 2000),
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
