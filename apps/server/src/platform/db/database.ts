import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type DatabaseConnection, type Driver, Kysely, PostgresDialect, SqliteDialect, SqliteDriver } from 'kysely';
import pg from 'pg';
import type { Config } from '../../config.js';
import type { DB } from './schema.js';

export type Database = Kysely<DB>;
export type DbKind = Config['database']['kind'];
/** The database or one of its transactions: the last, optional argument of a repository method that can join a caller's transaction. */
export type Executor = Kysely<DB>;

/** How long a request waits for a PostgreSQL connection before it is answered 数据库连接中断. */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * `onConnectionLost` hears of a PostgreSQL connection the server ended (a restart, a failover, an administrator),
 * idle or in use. pg reports it as an 'error' event on the client, and an event nobody listens to takes the whole
 * process down; the query in flight fails on its own and the pool drops the broken client when it is released.
 */
export function createDatabase(
  database: Config['database'],
  onConnectionLost: (err: Error) => void = () => {},
): Database {
  if (database.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: database.url, max: 10, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    pool.on('connect', (client) => client.on('error', onConnectionLost));
    // The pool repeats an idle client's error here; the client's own listener above has already reported it.
    pool.on('error', () => {});
    return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  }
  mkdirSync(path.dirname(database.file), { recursive: true });
  const sqlite = new SQLite(database.file);
  // WAL lets readers go on while one writer commits; foreign keys are off by default in SQLite.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<DB>({ dialect: new SqliteDialectKeepingErrors(sqlite) });
}

/**
 * SQLite rolls a transaction back by itself when a write fails on a full disk (SQLITE_FULL) or an I/O error;
 * Kysely's own `rollback` then fails with "cannot rollback - no transaction is active" and that error hides the
 * real one. Rolling back only a transaction still open lets the real error reach the caller.
 */
class SqliteDialectKeepingErrors extends SqliteDialect {
  constructor(private readonly sqlite: SQLite.Database) {
    super({ database: sqlite });
  }

  override createDriver(): Driver {
    const { sqlite } = this;
    return new (class extends SqliteDriver {
      override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
        if (sqlite.inTransaction) await super.rollbackTransaction(connection);
      }
    })({ database: sqlite });
  }
}

/** SQLSTATE classes of a lost server: 08 connection exception, 57P01–57P03 shutdown or not accepting connections. */
const LOST_SQLSTATE = /^(08|57P0[123])/;
const LOST_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);
/** pg and pg-pool raise these as plain Errors without a code. */
const LOST_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client (has encountered a connection error|was closed))/;

/** Whether a failure means the database could not be reached, as opposed to a wrong query or a broken rule. */
export function isConnectionLost(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (LOST_SQLSTATE.test(code) || LOST_SOCKET.has(code))) return true;
  return LOST_MESSAGE.test(err.message);
}
