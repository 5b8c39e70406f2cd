import net from 'node:net';
import { Redis } from 'ioredis';
import pg from 'pg';
import { newId } from '../../src/platform/ids.js';

/**
 * External services of the test suite. On CI (REQUIRE_SERVICES=1) a missing service is a failure;
 * on a developer's fresh machine the suites that need it are skipped with one clear line.
 */
export const requireServices = process.env.REQUIRE_SERVICES === '1';
export const postgresAdminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export async function postgresReachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return `PostgreSQL at ${postgresAdminUrl} is unreachable: ${(err as Error).message}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A bare RESP PING, so the check needs no Redis client library. */
export function redisReachable(): Promise<string | null> {
  const { hostname, port } = new URL(redisUrl);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    const done = (problem: string | null) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(3000, () => done(`Redis at ${redisUrl} did not answer in 3 s`));
    socket.on('error', (err) => done(`Redis at ${redisUrl} is unreachable: ${err.message}`));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG') ? null : `Redis answered ${data}`));
  });
}

/** Runs `run` on a connection of its own to the database at `url`, closed afterwards. */
export async function onDatabase<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Runs `run` on a connection to the PostgreSQL server's admin database (to create and drop test databases). */
export const onPostgresAdmin = <T>(run: (admin: pg.Client) => Promise<T>): Promise<T> =>
  onDatabase(postgresAdminUrl, run);

/** The rows one query gives on the database at `url` (for checks a user of the API cannot make). */
export const queryRows = <T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) =>
  onDatabase(url, async (client) => (await client.query<T>(text, values)).rows);

/** Where the suites' global setup left the run's migrated and seeded template database (template-database.ts). */
export const SQLITE_TEMPLATE_ENV = 'HUAFANG_TEST_SQLITE_TEMPLATE';
export const POSTGRES_TEMPLATE_ENV = 'HUAFANG_TEST_POSTGRES_TEMPLATE';

export type TestDatabase = { name: string; url: string; drop(): Promise<void> };

/**
 * A fresh PostgreSQL database named `<prefix>_<unique id>`, for one test file or deployment: empty, or a copy of
 * `template` (a database nobody is connected to).
 */
export async function createTestDatabase(prefix: string, template?: string): Promise<TestDatabase> {
  const name = `${prefix}_${newId()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')}`;
  await onPostgresAdmin(async (admin) => {
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
    // A test database need not outlive a crash of the PostgreSQL server: commits skip the wait for the disk flush.
    await admin.query(`alter database ${name} set synchronous_commit = off`);
  });
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () =>
      onPostgresAdmin(async (admin) => void (await admin.query(`drop database if exists ${name} with (force)`))),
  };
}

/** Deletes every key under `prefix` (what one test app or deployment left in the shared Redis). */
export async function dropRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
