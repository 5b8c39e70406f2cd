import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import { embeddedParts } from './modes/embedded.js';
import type { ProcessRole } from './modes/mode-parts.js';
import { openMode } from './modes/open-mode.js';
import { processParts, startParts } from './modes/process-parts.js';
import { LocalBroadcast } from './platform/broadcast/broadcast.js';
import { createDatabase, type Database } from './platform/db/database.js';
import { migrateToLatest } from './platform/db/migrations.js';
import { underStartLock } from './platform/db/start-lock.js';
import type { SharedState } from './platform/redis/shared-state.js';
import { createSmsProvider } from './platform/sms/create-sms-provider.js';
import { createStorage } from './platform/storage/create-storage.js';
import type { Storage } from './platform/storage/storage.js';
import { signingSecret, UrlSigner } from './platform/url-signer.js';
import { ensureFirstAdmin, seedDemoContent } from './seed/seed.js';
import { createServices, type Services } from './services.js';

export type Runtime = {
  db: Database;
  services: Services;
  /** Scale-out API processes: the broadcast and rate-limit store they share through Redis. */
  shared: SharedState | null;
  /** Stops the background work: running jobs get the grace period, then stop and wait for the next start. */
  stopJobs(): Promise<void>;
  /** Stops the jobs if not yet done, then closes Redis and the database. */
  close(): Promise<void>;
};

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
        mode: embeddedParts(),
        bus: new LocalBroadcast(log),
      }),
    );
    await services.audit.recorder.close();
  } finally {
    await db.destroy();
  }
}

/**
 * Everything behind the HTTP layer, shared by API and worker processes: database (migrated), the mode's parts
 * (Redis in scale-out mode), services, the first admin and demo content (not in workers), and the process's
 * background work started (see processParts: which process runs what).
 */
export async function openRuntime(
  config: Config,
  role: ProcessRole,
  log: FastifyBaseLogger,
  options: { clock?: () => number; storage?: Storage } = {},
): Promise<Runtime> {
  const db = createDatabase(config.database, (err) => log.warn({ err }, 'database connection lost'));
  let mode: Awaited<ReturnType<typeof openMode>> | undefined;
  try {
    mode = await openMode(config, role, log);
    const { parts, bus } = mode;
    const services = await prepareDatabase(db, config, role, log, (signer) =>
      createServices({
        db,
        signer,
        config,
        sms: createSmsProvider(config.sms, log),
        storage: options.storage ?? createStorage(config.storage),
        log,
        clock: options.clock,
        mode: parts,
        bus,
      }),
    );
    const stopJobs = await startParts(processParts(services, parts, config, log));
    const opened = mode;
    let closed: Promise<void> | undefined;
    return {
      db,
      services,
      shared: opened.shared,
      stopJobs,
      close: () => {
        closed ??= (async () => {
          await stopJobs();
          // After the jobs (their ends are recorded) and the requests (closed before onClose): the last entries.
          await services.audit.recorder.close();
          await opened.close();
          await db.destroy();
        })();
        return closed;
      },
    };
  } catch (err) {
    await mode?.abandon();
    await db.destroy();
    throw err;
  }
}
