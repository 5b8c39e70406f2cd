import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type DatabaseConnection, type Driver, Kysely, PostgresDialect, SqliteDialect, SqliteDriver } from 'kysely';
import pg from 'pg';
import type { Config } from '../../config.js';
import type { DB } from './schema.js';

export type Database = Kysely<DB>;
export type DbKind = Config['database']['kind'];

/**
 * `onIdleError` hears of a pooled PostgreSQL connection the server closed while it sat idle (a restart, an
 * administrator): pg reports it as an event, and without a listener it would take the whole process down.
 */
export function createDatabase(database: Config['database'], onIdleError: (err: Error) => void = () => {}): Database {
  if (database.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: database.url, max: 10 });
    pool.on('error', onIdleError);
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
