import { sql } from 'kysely';
import type { Database, DbKind } from './database.js';

/** The advisory lock key of start-up preparation ("huafang" in ASCII); Kysely's migration lock uses another. */
const START_LOCK_KEY = 0x68_75_61_66_61_6e_67n;

/**
 * Runs `prepare` (migrations and first-run seeding) in one process at a time. On PostgreSQL several processes may
 * start together (replicas, a migration Job): each takes a session-level advisory lock on a connection of its own,
 * so one prepares while the others wait, and they then find the work done. A process that dies holding it loses
 * it with its connection. SQLite has one process.
 */
export async function underStartLock<T>(db: Database, kind: DbKind, prepare: () => Promise<T>): Promise<T> {
  if (kind !== 'postgres') return prepare();
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${sql.lit(START_LOCK_KEY)})`.execute(connection);
    try {
      return await prepare();
    } finally {
      await sql`select pg_advisory_unlock(${sql.lit(START_LOCK_KEY)})`.execute(connection);
    }
  });
}
