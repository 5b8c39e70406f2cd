import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, onTestFailed } from 'vitest';
import { ADMIN_PASSWORD, ServerProcess } from '../helpers/server-process.js';
import {
  createTestDatabase,
  dropRedisKeys,
  postgresReachable,
  redisReachable,
  redisUrl,
  requireServices,
  type TestDatabase,
} from '../helpers/services.js';

const problem = (await postgresReachable()) ?? (await redisReachable());
if (problem) {
  if (requireServices) throw new Error(`REQUIRE_SERVICES=1 and ${problem}`);
  console.warn(`[server-process] SKIPPED start lock: ${problem}. Start PostgreSQL and Redis to run it.`);
}

const REPLICAS = 4;
/** Four processes starting on two shared cores, one after another through the lock's preparation. */
const START_TIMEOUT_MS = 120_000;

/** The row count of every table of the database. */
async function rowCounts(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      "select table_name as name from information_schema.tables where table_schema = 'public' order by table_name",
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables.rows) {
      const res = await client.query<{ n: string }>(`select count(*) as n from "${name}"`);
      counts[name] = Number(res.rows[0]!.n);
    }
    return counts;
  } finally {
    await client.end();
  }
}

describe.skipIf(problem !== null)('start-up with several replicas on an empty PostgreSQL database', () => {
  const databases: TestDatabase[] = [];
  const dataDirs: string[] = [];
  const processes: ServerProcess[] = [];
  const prefix = `hfstart-${process.pid}`;

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop('SIGKILL')));
    for (const db of databases) await db.drop().catch(() => undefined);
    await dropRedisKeys(redisUrl, prefix).catch(() => undefined);
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });

  const newDataDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'huafang-start-lock-'));
    dataDirs.push(dir);
    return dir;
  };

  it('four API processes started at once all serve, with one admin and one copy of every seed row', {
    timeout: 180_000,
  }, async () => {
    onTestFailed(() => {
      for (const p of processes) console.log(`--- pid ${p.pid} (alive ${p.alive}) ---\n${p.output}`);
    });
    // What one process alone prepares: `npm run migrate` on a database of its own.
    const reference = await createTestDatabase('huafang_startref');
    databases.push(reference);
    const migrate = new ServerProcess(
      await newDataDir(),
      { DATABASE_URL: reference.url, ADMIN_PASSWORD },
      { script: 'apps/server/src/migrate.ts', compiled: true },
    );
    processes.push(migrate);
    expect(await migrate.exited, migrate.output).toBe(0);
    const expected = await rowCounts(reference.url);

    const shared = await createTestDatabase('huafang_startlock');
    databases.push(shared);
    const dataDir = await newDataDir();
    const env = { DATABASE_URL: shared.url, REDIS_URL: redisUrl, REDIS_PREFIX: prefix, ADMIN_PASSWORD };
    const starts = Array.from({ length: REPLICAS }, () =>
      ServerProcess.start(dataDir, env, { compiled: true }, START_TIMEOUT_MS).then((p) => {
        processes.push(p);
        return p;
      }),
    );
    const replicas = await Promise.all(starts);

    for (const replica of replicas) {
      const health = await replica.call('GET', '/api/health');
      expect(health, `pid ${replica.pid}`).toEqual({
        status: 200,
        body: { code: 0, msg: 'ok', data: { status: 'ok' } },
      });
    }
    const creators = replicas.filter((replica) => replica.output.includes('首个管理员已创建'));
    expect(creators, 'processes that created the first admin').toHaveLength(1);
    const counts = await rowCounts(shared.url);
    expect(counts.users).toBe(1);
    expect(counts).toEqual(expected);
    for (const replica of replicas) {
      const login = await replica.call('POST', '/api/auth/account', {
        body: { account: 'admin', password: ADMIN_PASSWORD },
      });
      expect(login.body.code, login.body.msg).toBe(0);
    }
    const seeded = Object.entries(expected).filter(([, n]) => n > 0);
    console.log(
      `[start-lock] ${REPLICAS} API processes on one empty database: all healthy, seed rows as one process makes ` +
        `them (${seeded.map(([table, n]) => `${table} ${n}`).join(', ')})`,
    );
  });
});
