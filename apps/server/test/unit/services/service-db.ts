import type { FastifyBaseLogger } from 'fastify';
import { AuditRecorder } from '../../../src/features/audit/audit-recorder.js';
import { createDatabase, type Database } from '../../../src/platform/db/database.js';
import { migrateToLatest } from '../../../src/platform/db/migrations.js';
import { newId, nowIso } from '../../../src/platform/ids.js';
import { createRepositories, type Repositories } from '../../../src/repositories.js';

const silent = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} } as unknown as FastifyBaseLogger;

export type ServiceDb = {
  db: Database;
  repos: Repositories;
  /** A real recorder writing to this database's audit_log (flush before reading it). */
  audit: AuditRecorder;
  /** A plain user with `credits`; answers their id. */
  newUser(credits?: number): Promise<string>;
  close(): Promise<void>;
};

/**
 * A migrated in-memory SQLite database with the product's repositories over it: services are built on these in one
 * line and their rules are tested on real SQL, without HTTP or the rest of the app.
 */
export async function openServiceDb(): Promise<ServiceDb> {
  const db = createDatabase({ kind: 'sqlite', file: ':memory:' });
  await migrateToLatest(db);
  const repos = createRepositories(db, 'sqlite');
  const audit = new AuditRecorder(repos.audit, silent);
  return {
    db,
    repos,
    audit,
    newUser: (credits = 0) => insertUser(repos, credits),
    async close() {
      await audit.close();
      await db.destroy();
    },
  };
}

/** A user with `credits` and nothing else, written straight to the table (no sign-up), as the rules under test need. */
export async function insertUser(repos: Repositories, credits = 0): Promise<string> {
  const id = newId();
  const now = nowIso();
  await repos.users.insert({
    id,
    account: `u${id.slice(-10)}`,
    mobile: null,
    password_hash: null,
    nickname: null,
    avatar_file_id: null,
    is_admin: 0,
    invite_code_id: null,
    code_type: null,
    credits,
    disabled: 0,
    created_at: now,
    updated_at: now,
  });
  return id;
}
