import net from 'node:net';
import pg from 'pg';

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
