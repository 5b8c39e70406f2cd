import { sql } from 'kysely';
import type { Database, DbKind } from '../../platform/db/database.js';
import { newId } from '../../platform/ids.js';
import type { Storage } from '../../platform/storage/storage.js';

export type CheckStatus = 'ok' | 'down';
export type HealthReport = { status: CheckStatus; db: DbKind; checks: { database: CheckStatus; storage: CheckStatus } };

/** Whether the server can do its work: the database answers and the storage takes a write. */
export class HealthService {
  constructor(
    private readonly db: Database,
    private readonly storage: Storage,
    private readonly dbKind: DbKind,
  ) {}

  async check(): Promise<HealthReport> {
    const [database, storage] = await Promise.all([
      outcome(sql`select 1`.execute(this.db)),
      outcome(this.probeStorage()),
    ]);
    const status = database === 'ok' && storage === 'ok' ? 'ok' : 'down';
    return { status, db: this.dbKind, checks: { database, storage } };
  }

  /** A small file written and removed: a full disk or a read-only mount fails here before a user's upload does. */
  private async probeStorage(): Promise<void> {
    const key = `health/${newId()}.probe`;
    try {
      await this.storage.put(key, Buffer.from('ok'));
    } finally {
      await this.storage.remove(key);
    }
  }
}

async function outcome(check: Promise<unknown>): Promise<CheckStatus> {
  try {
    await check;
    return 'ok';
  } catch {
    return 'down';
  }
}
