import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import type { TestProject } from 'vitest/node';
import { type Config, loadConfig } from '../../src/config.js';
import { migrateAndSeed } from '../../src/runtime.js';
import { createTestDatabase, POSTGRES_TEMPLATE_ENV, postgresReachable, SQLITE_TEMPLATE_ENV } from './services.js';
import { ADMIN } from './test-app.js';

/**
 * Global setup of the server suites: migrates and seeds one database per run, as a first start would, and names it
 * in the environment the test workers inherit. Each test file's app then starts on a copy of it (a file copy on
 * SQLite, `CREATE DATABASE … TEMPLATE` on PostgreSQL) instead of running every migration and the seeding again;
 * its start still migrates and seeds, finding nothing left to do. Without the variables (a bench, an unreachable
 * PostgreSQL) createTestApp starts on an empty database.
 */
async function prepare(database: Config['database'], dataDir: string): Promise<void> {
  const config: Config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_ACCOUNT: ADMIN.account,
      ADMIN_PASSWORD: ADMIN.password,
    }),
    database,
  };
  await migrateAndSeed(config, pino({ level: 'warn' }));
}

export default async function prepareTemplateDatabase(project: TestProject): Promise<() => Promise<void>> {
  const onPostgres = project.config.env.TEST_DB === 'postgres' || project.config.env.TEST_MODE === 'scaleout';
  const variable = onPostgres ? POSTGRES_TEMPLATE_ENV : SQLITE_TEMPLATE_ENV;
  // server-postgres and server-scaleout share one PostgreSQL template.
  if (process.env[variable]) return async () => undefined;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'huafang-template-'));
  let drop = async (): Promise<void> => undefined;
  if (onPostgres) {
    if (await postgresReachable()) return async () => void (await rm(dataDir, { recursive: true, force: true }));
    const created = await createTestDatabase('huafang_template');
    drop = created.drop;
    await prepare({ kind: 'postgres', url: created.url }, dataDir);
    process.env[variable] = created.name;
  } else {
    const file = path.join(dataDir, 'template.db');
    await prepare({ kind: 'sqlite', file }, dataDir);
    process.env[variable] = file;
  }
  return async () => {
    delete process.env[variable];
    await drop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
