import type { Health } from '@huafang/contracts';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { Database, DbKind } from '../../platform/db/database.js';
import type { Storage } from '../../platform/storage/storage.js';
import type { JobQueue } from '../generate/job-queue.js';

export type CheckStatus = 'ok' | 'down';
export type HealthReport = Health & { db: DbKind; checks: { database: CheckStatus; storage: CheckStatus } };

/**
 * Whether the server can do its work: the database answers, the storage is reachable (a probe that leaves
 * nothing behind) and, in scale-out mode, Redis answers. Database or storage down: `down`; Redis alone: `degraded`.
 */
export class HealthService {
  constructor(
    private readonly db: Database,
    private readonly storage: Storage,
    private readonly dbKind: DbKind,
    private readonly scaleOut: { probe: Redis; queue: JobQueue } | null = null,
  ) {}

  /** `withQueue`: BullMQ's counts too (for admins; a few Redis commands). */
  async check(withQueue = false): Promise<HealthReport> {
    const [database, storage, redis] = await Promise.all([
      outcome(sql`select 1`.execute(this.db)),
      outcome(this.storage.probe()),
      this.scaleOut ? outcome(this.scaleOut.probe.ping()) : undefined,
    ]);
    const status = database === 'down' || storage === 'down' ? 'down' : redis === 'down' ? 'degraded' : 'ok';
    const report: HealthReport = { status, db: this.dbKind, checks: { database, storage } };
    if (redis) report.checks.redis = redis;
    if (withQueue && this.scaleOut) {
      report.queue = redis === 'ok' ? await this.scaleOut.queue.health().catch(() => null) : null;
    }
    return report;
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
