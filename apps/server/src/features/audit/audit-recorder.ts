import { type AuditAction, type AuditRole, maskMobile } from '@huafang/contracts';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Insertable } from 'kysely';
import type { AuditLogTable } from '../../platform/db/schema.js';
import { newId } from '../../platform/ids.js';
import type { AuditRepository } from './audit.repository.js';

/** Where a request came from, as the trail names it; a job keeps its submit's origin in its payload. */
export type AuditOrigin = { ip: string | null; apiKeyId: string | null };

export const NO_ORIGIN: AuditOrigin = { ip: null, apiKeyId: null };

export function originOf(req: FastifyRequest): AuditOrigin {
  return { ip: req.ip || null, apiKeyId: req.apiKey?.id ?? null };
}

export type AuditEvent = {
  action: AuditAction;
  /** The acting user (for a job's end: the job's owner); null when nobody is known (an unknown login name). */
  userId: string | null;
  origin?: AuditOrigin;
  /** Left out: the user's role when the entry is written (admin or user), system without a user. */
  role?: AuditRole;
  /** Without a user: the mobile number a failed login named, kept masked. */
  mobile?: string;
  /** What was acted on; its name (a template's, a user's) goes into the detail as targetName. */
  target?: { type: string; id: string; name?: string };
  detail?: Record<string, unknown>;
};

type Pending = { row: Insertable<AuditLogTable>; role: AuditRole | undefined; attempts: number };

export type AuditRecorderOptions = {
  /** A batch is written this long after its first entry, or at once when it is full. */
  intervalMs: number;
  batchSize: number;
  /** Entries kept while the database refuses them; beyond it the oldest are dropped (and counted). */
  maxPending: number;
  /** Tries of one entry before it is dropped (and counted). */
  maxAttempts: number;
};

/**
 * A text as its column can hold it (the widths of migration 0013): cut to `max` characters, NUL removed. Without
 * it one value PostgreSQL refuses (an over-long user id in a refused admin body, an X-Forwarded-For header behind
 * a trusted proxy) fails its whole batch again and again, and the entries behind it wait, then are dropped.
 */
function column(value: string | null | undefined, max: number): string | null {
  return value == null ? null : value.replace(/\0/g, '').slice(0, max);
}

/** The detail as JSON; a value JSON cannot hold (a BigInt, a cycle) leaves a note instead of throwing. */
function detailJson(detail: Record<string, unknown> | undefined): string {
  try {
    return JSON.stringify(detail ?? {});
  } catch {
    return JSON.stringify({ unserializable: true });
  }
}

const DEFAULTS: AuditRecorderOptions = { intervalMs: 200, batchSize: 100, maxPending: 10_000, maxAttempts: 5 };
/** After a failed write the next try waits this long, doubled per failure up to 30 s. */
const RETRY_BASE_MS = 1000;

/**
 * The audit trail's writer. `record` only stamps the entry and queues it: the request (or job) it records never
 * waits for the database. Entries are written in batches of one multi-row insert, with the actors' masked mobile
 * and role looked up once per batch. A failed batch goes back to the front of the queue and is tried again later;
 * an entry that failed maxAttempts times, or the oldest ones beyond maxPending while the database is away, are
 * dropped with an error in the log and counted in `stats().dropped`.
 */
export class AuditRecorder {
  private readonly options: AuditRecorderOptions;
  private pending: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private writing: Promise<void> = Promise.resolve();
  private written = 0;
  private dropped = 0;
  private closed = false;
  /** The last stamp given, in ms: entries recorded in one millisecond still list in the order they happened. */
  private lastStamp = 0;

  constructor(
    private readonly repo: AuditRepository,
    private readonly log: FastifyBaseLogger,
    options: Partial<AuditRecorderOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Queues one entry; never throws, never waits. */
  record(event: AuditEvent): void {
    if (this.closed) {
      this.drop(1, 'audit entry recorded after shutdown');
      return;
    }
    const origin = event.origin ?? NO_ORIGIN;
    this.pending.push({
      role: event.role ?? (event.userId ? undefined : 'system'),
      attempts: 0,
      row: {
        id: newId(),
        at: this.stamp(),
        actor_user_id: column(event.userId, 32),
        actor_mobile_masked: event.mobile ? column(maskMobile(event.mobile), 20) : null,
        actor_role: 'system',
        api_key_id: column(origin.apiKeyId, 32),
        ip: column(origin.ip, 64),
        action: event.action,
        target_type: column(event.target?.type, 32),
        target_id: column(event.target?.id, 64),
        detail: detailJson(event.target?.name ? { ...event.detail, targetName: event.target.name } : event.detail),
      },
    });
    const over = this.pending.length - this.options.maxPending;
    if (over > 0) {
      this.pending.splice(0, over);
      this.drop(over, 'audit entries dropped: too many waiting while the database refuses them');
    }
    // A full batch goes at once, unless the database is failing (then the retry's back-off timer waits).
    if (this.pending.length >= this.options.batchSize && this.failures === 0) {
      this.clearTimer();
      this.schedule(0);
    } else {
      this.schedule(this.failures === 0 ? this.options.intervalMs : this.retryDelay());
    }
  }

  /**
   * Now, or a millisecond after the previous entry when that is later: the list orders by time, then by a random
   * id, so two entries of the same millisecond (an admin's two quick requests) could otherwise swap.
   */
  private stamp(): string {
    this.lastStamp = Math.max(Date.now(), this.lastStamp + 1);
    return new Date(this.lastStamp).toISOString();
  }

  /** Writes everything queued so far (tests, shutdown); a batch the database refuses stays queued. */
  flush(): Promise<void> {
    this.clearTimer();
    this.writing = this.writing.then(() => this.drain());
    return this.writing;
  }

  /** Shutdown: one last write of what is queued; later entries are dropped. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    this.clearTimer();
    if (this.pending.length > 0) {
      this.drop(this.pending.length, 'audit entries not written before shutdown');
      this.pending = [];
    }
  }

  stats() {
    return { pending: this.pending.length, written: this.written, dropped: this.dropped };
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, delayMs);
    this.timer.unref();
  }

  private retryDelay(): number {
    return Math.min(RETRY_BASE_MS * 2 ** (this.failures - 1), 30_000);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, this.options.batchSize);
      try {
        await this.write(batch);
        this.written += batch.length;
        this.failures = 0;
      } catch (err) {
        this.failures++;
        const retry = batch.filter((entry) => ++entry.attempts < this.options.maxAttempts);
        if (retry.length < batch.length) this.drop(batch.length - retry.length, 'audit entries dropped after retries');
        this.pending.unshift(...retry);
        this.log.error({ err, entries: batch.length }, 'audit entries not written; trying again later');
        // A timer an entry set while this write was under way would retry too soon (and use up the tries).
        this.clearTimer();
        if (this.pending.length > 0) this.schedule(this.retryDelay());
        return;
      }
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    const ids = [...new Set(batch.flatMap((entry) => (entry.row.actor_user_id ? [entry.row.actor_user_id] : [])))];
    const actors = new Map((await this.repo.actors(ids)).map((user) => [user.id, user]));
    await this.repo.insertBatch(
      batch.map(({ row, role }) => {
        const actor = row.actor_user_id ? actors.get(row.actor_user_id) : undefined;
        return {
          ...row,
          actor_mobile_masked: actor?.mobile ? maskMobile(actor.mobile) : row.actor_mobile_masked,
          actor_role: role ?? (actor?.is_admin === 1 ? 'admin' : 'user'),
        };
      }),
    );
  }

  private drop(count: number, message: string): void {
    this.dropped += count;
    this.log.error({ dropped: count, droppedTotal: this.dropped }, message);
  }
}
