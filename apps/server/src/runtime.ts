import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import { LocalBroadcast } from './platform/broadcast/broadcast.js';
import { createDatabase, type Database } from './platform/db/database.js';
import { migrateToLatest } from './platform/db/migrations.js';
import { underStartLock } from './platform/db/start-lock.js';
import { connectRedis, FAIL_FAST, untilReady } from './platform/redis/redis.js';
import { connectSharedState, type SharedState } from './platform/redis/shared-state.js';
import { createSmsProvider } from './platform/sms/create-sms-provider.js';
import { createStorage } from './platform/storage/create-storage.js';
import type { Storage } from './platform/storage/storage.js';
import { signingSecret, UrlSigner } from './platform/url-signer.js';
import { ensureFirstAdmin, seedDemoContent } from './seed/seed.js';
import {
  createServices,
  type ProcessRole,
  type RedisConnections,
  type Services,
  startGeneration,
  stopGeneration,
} from './services.js';

export type Runtime = {
  db: Database;
  services: Services;
  /** Scale-out API processes: the broadcast and rate-limit store they share through Redis. */
  shared: SharedState | null;
  /** Stops the generation machinery: running jobs get the grace period, then stop and wait for the next start. */
  stopJobs(): Promise<void>;
  /** Stops the jobs if not yet done, then closes Redis and the database. */
  close(): Promise<void>;
};

/** How long an API process waits at start for its Redis connections before it serves anyway. */
const STARTUP_REDIS_WAIT_MS = 5_000;

/** The role a process takes from the configuration: scale-out when Redis is configured. */
export function roleOf(config: Config, wanted: 'api' | 'worker'): ProcessRole {
  return config.redisUrl ? wanted : 'embedded';
}

/**
 * What a start prepares in the database, once however many processes start together (see underStartLock):
 * migrations, the URL signing secret, and (not for workers) the first admin and demo content. `wire` makes the
 * services from the signer; they are returned for the process to run.
 */
async function prepareDatabase(
  db: Database,
  config: Config,
  role: ProcessRole,
  log: FastifyBaseLogger,
  wire: (signer: UrlSigner) => Services,
): Promise<Services> {
  return underStartLock(db, config.database.kind, async () => {
    await migrateToLatest(db);
    const services = wire(new UrlSigner(await signingSecret(db, config.workUrls.secret), config.workUrls.ttlMs));
    if (role !== 'worker') {
      await ensureFirstAdmin(db, config, log);
      if (config.seedDemo) await seedDemoContent(services);
    }
    return services;
  });
}

/**
 * `npm run migrate`: what a start prepares (migrations and first-run seeding), for a Kubernetes Job or an init
 * container before the processes start; no job runs and nothing is served.
 */
export async function migrateAndSeed(config: Config, log: FastifyBaseLogger): Promise<void> {
  const db = createDatabase(config.database, (err) => log.warn({ err }, 'database connection lost'));
  try {
    const services = await prepareDatabase(db, config, 'embedded', log, (signer) =>
      createServices({
        db,
        signer,
        config,
        sms: createSmsProvider(config.sms, log),
        storage: createStorage(config.storage),
        log,
        role: 'embedded',
        bus: new LocalBroadcast(log),
      }),
    );
    await services.audit.recorder.close();
  } finally {
    await db.destroy();
  }
}

/**
 * Everything behind the HTTP layer, shared by API and worker processes: database (migrated), Redis in scale-out
 * mode, services, the first admin and demo content (not in workers), and the generation machinery started.
 */
export async function openRuntime(
  config: Config,
  role: ProcessRole,
  log: FastifyBaseLogger,
  options: { clock?: () => number; storage?: Storage } = {},
): Promise<Runtime> {
  const db = createDatabase(config.database, (err) => log.warn({ err }, 'database connection lost'));
  let redis: RedisConnections | undefined;
  let shared: SharedState | null = null;
  try {
    if (role !== 'embedded') {
      const url = config.redisUrl;
      if (!url) throw new Error(`The ${role} role needs REDIS_URL`);
      // An API process's requests fail fast while Redis is away (503); a worker's commands wait for it instead.
      const requests = role === 'api' ? FAIL_FAST : {};
      redis = {
        client: connectRedis(url, role, log, requests),
        subscriber: connectRedis(url, `${role}-interrupts`, log),
        polls: connectRedis(url, `${role}-polls`, log, { enableAutoPipelining: true, ...requests }),
        probe: connectRedis(url, `${role}-health`, log, FAIL_FAST),
      };
      // Revocations, cache invalidations and rate limits concern API processes only.
      if (role === 'api') {
        shared = await connectSharedState(url, config.redisPrefix, log);
        const { client, polls } = redis;
        await Promise.all([untilReady(client, STARTUP_REDIS_WAIT_MS), untilReady(polls, STARTUP_REDIS_WAIT_MS)]);
      }
    }
    const services = await prepareDatabase(db, config, role, log, (signer) =>
      createServices({
        db,
        signer,
        config,
        sms: createSmsProvider(config.sms, log),
        storage: options.storage ?? createStorage(config.storage),
        log,
        clock: options.clock,
        role,
        redis,
        bus: shared?.bus ?? new LocalBroadcast(log),
      }),
    );
    await startGeneration(services, config.backendHealthMs);
    let stopped: Promise<void> | undefined;
    let closed: Promise<void> | undefined;
    const stopJobs = () => {
      stopped ??= stopGeneration(services);
      return stopped;
    };
    return {
      db,
      services,
      shared,
      stopJobs,
      close: () => {
        closed ??= (async () => {
          await stopJobs();
          // After the jobs (their ends are recorded) and the requests (closed before onClose): the last entries.
          await services.audit.recorder.close();
          await shared?.close();
          if (redis) {
            const { client, subscriber, polls, probe } = redis;
            await Promise.allSettled([client.quit(), subscriber.quit(), polls.quit(), probe.quit()]);
          }
          await db.destroy();
        })();
        return closed;
      },
    };
  } catch (err) {
    await shared?.close();
    redis?.client.disconnect();
    redis?.subscriber.disconnect();
    redis?.polls.disconnect();
    redis?.probe.disconnect();
    await db.destroy();
    throw err;
  }
}
