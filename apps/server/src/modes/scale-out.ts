import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { RedisBackendLeases } from '../features/backends/redis-backend-leases.js';
import { BullJobQueue } from '../features/generate/bullmq-job-queue.js';
import { lineFeedChannel } from '../features/generate/queue-standings.js';
import { RedisInterruptChannel } from '../features/generate/redis-interrupt-channel.js';
import { progressFeedChannel, RedisProgressStore } from '../features/generate/redis-progress-store.js';
import { LocalBroadcast } from '../platform/broadcast/broadcast.js';
import { connectRedis, FAIL_FAST, untilReady } from '../platform/redis/redis.js';
import { RedisFeed } from '../platform/redis/redis-feed.js';
import { connectSharedState, type SharedState } from '../platform/redis/shared-state.js';
import type { ModeParts, OpenedMode } from './mode-parts.js';

/**
 * Scale-out mode's Redis: commands, a connection of its own for pub/sub, and one for the progress polls' reads
 * that pipelines the commands of concurrent requests into one write (kept apart from BullMQ's connection).
 */
export type RedisConnections = {
  client: Redis;
  subscriber: Redis;
  polls: Redis;
  /** Health probes: fails fast whatever the role, so a probe answers while Redis is away. */
  probe: Redis;
  /**
   * API processes: the subscription to the published writes of progress and standings, which the polls then read
   * from memory (see RedisProgressStore); absent, every poll reads Redis.
   */
  feed?: RedisFeed;
};

/**
 * Scale-out mode: the line in BullMQ, progress and interrupts through Redis, remote backends leased across
 * workers. API processes add jobs and read progress; workers run the jobs and hear the interrupts.
 */
export function scaleOutParts(redis: RedisConnections, role: 'api' | 'worker', config: Config): ModeParts {
  const prefix = config.redisPrefix;
  return {
    role,
    leases: new RedisBackendLeases(redis.client, prefix, config.worker.lockMs, config.backendHealthMs),
    board: new RedisProgressStore(redis.polls, prefix, redis.feed),
    interrupts: new RedisInterruptChannel(redis.client, redis.subscriber, prefix, role === 'worker'),
    queue: (deps) =>
      new BullJobQueue({
        ...deps,
        redis: redis.client,
        polls: redis.polls,
        feed: redis.feed,
        prefix,
        role,
        worker: config.worker,
      }),
    health: (queue) => ({ probe: redis.probe, queue }),
    // Lasts a little less than the tick, so the next tick is free again whichever worker's timer comes first.
    claimTick: async (task, intervalMs) =>
      (await redis.client.set(`${prefix}:tick:${task}`, '1', 'PX', Math.max(1, intervalMs - 1000), 'NX')) === 'OK',
  };
}

/** How long an API process waits at start for its Redis connections before it serves anyway. */
const STARTUP_REDIS_WAIT_MS = 5_000;

/** Scale-out mode opened for one process: its Redis connections, its parts, and (API processes) the shared state. */
export async function openScaleOut(
  config: Config,
  role: 'api' | 'worker',
  log: FastifyBaseLogger,
): Promise<OpenedMode> {
  const url = config.redisUrl;
  if (!url) throw new Error(`The ${role} role needs REDIS_URL`);
  // An API process's requests fail fast while Redis is away (503); a worker's commands wait for it instead.
  const requests = role === 'api' ? FAIL_FAST : {};
  const redis: RedisConnections = {
    client: connectRedis(url, role, log, requests),
    subscriber: connectRedis(url, `${role}-interrupts`, log),
    polls: connectRedis(url, `${role}-polls`, log, { enableAutoPipelining: true, ...requests }),
    probe: connectRedis(url, `${role}-health`, log, FAIL_FAST),
  };
  const all = [redis.client, redis.subscriber, redis.polls, redis.probe];
  if (role === 'api') {
    // Fails fast as the polls' reads do: a poll waits for its PING (RedisFeed.sync).
    const connection = connectRedis(url, 'api-progress-feed', log, { ...FAIL_FAST, autoResubscribe: false });
    all.push(connection);
    redis.feed = new RedisFeed(
      connection,
      [progressFeedChannel(config.redisPrefix), lineFeedChannel(config.redisPrefix)],
      log,
    );
  }
  let shared: SharedState | null = null;
  try {
    // Revocations, cache invalidations and rate limits concern API processes only.
    if (role === 'api') {
      shared = await connectSharedState(url, config.redisPrefix, log);
      await Promise.all([
        untilReady(redis.client, STARTUP_REDIS_WAIT_MS),
        untilReady(redis.polls, STARTUP_REDIS_WAIT_MS),
      ]);
    }
  } catch (err) {
    for (const connection of all) connection.disconnect();
    throw err;
  }
  return {
    parts: scaleOutParts(redis, role, config),
    bus: shared?.bus ?? new LocalBroadcast(log),
    shared,
    async close() {
      redis.feed?.close();
      await shared?.close();
      await Promise.allSettled(all.map((connection) => connection.quit()));
    },
    async abandon() {
      redis.feed?.close();
      await shared?.close();
      for (const connection of all) connection.disconnect();
    },
  };
}
