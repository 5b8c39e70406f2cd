import type { Insertable, Selectable } from 'kysely';
import { countRows, type PageRequest, pageRows } from '../../platform/db/count.js';
import type { Database } from '../../platform/db/database.js';
import type { AuditLogTable } from '../../platform/db/schema.js';

export type AuditRow = Selectable<AuditLogTable>;

/** The filters as SQL sees them: times are ISO bounds, a mobile has become the ids of its users. */
export type AuditRowFilter = {
  from?: string;
  /** Exclusive. */
  to?: string;
  userIds?: string[];
  action?: string;
  /** `auth.` keeps every auth.* action. */
  actionPrefix?: string;
  ip?: string;
  apiKeyId?: string;
};

/** Rows a prune deletes per statement, so a first prune of a large table does not hold one long lock. */
const PRUNE_BATCH = 5000;

/** SQL of the audit_log table: the recorder's batched inserts, the admin's pages and export, the daily prune. */
export class AuditRepository {
  constructor(private readonly db: Database) {}

  /** One multi-row statement for the whole batch. */
  async insertBatch(rows: Insertable<AuditLogTable>[]): Promise<void> {
    if (rows.length > 0) await this.db.insertInto('audit_log').values(rows).execute();
  }

  /** The mobile and admin flag of the acting users, which the request path does not know. */
  actors(userIds: string[]) {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('users').select(['id', 'mobile', 'is_admin']).where('id', 'in', userIds).execute();
  }

  /** What the audit page calls the acting users: nickname, else account. */
  names(userIds: string[]) {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('users').select(['id', 'nickname', 'account']).where('id', 'in', userIds).execute();
  }

  /**
   * The name of what an admin request acts on, read before the request runs (a deleted template no longer has
   * one afterwards); undefined for a kind the trail does not name this way.
   */
  async targetName(type: string, id: string): Promise<string | undefined> {
    if (type === 'template') {
      const row = await this.db.selectFrom('templates').select('name').where('id', '=', id).executeTakeFirst();
      return row?.name;
    }
    if (type === 'task') {
      const row = await this.db.selectFrom('task_nodes').select('name').where('id', '=', id).executeTakeFirst();
      return row?.name;
    }
    if (type === 'template_step') {
      const row = await this.db
        .selectFrom('template_steps')
        .innerJoin('templates', 'templates.id', 'template_steps.template_id')
        .select(['templates.name as template', 'template_steps.name as step'])
        .where('template_steps.id', '=', id)
        .executeTakeFirst();
      return row ? `${row.template} › ${row.step}` : undefined;
    }
    return undefined;
  }

  userIdsByMobile(mobile: string): Promise<string[]> {
    return this.db
      .selectFrom('users')
      .select('id')
      .where('mobile', '=', mobile)
      .execute()
      .then((rows) => rows.map((row) => row.id));
  }

  private filtered(filter: AuditRowFilter) {
    let query = this.db.selectFrom('audit_log');
    if (filter.from) query = query.where('at', '>=', filter.from);
    if (filter.to) query = query.where('at', '<', filter.to);
    if (filter.userIds) query = query.where('actor_user_id', 'in', filter.userIds);
    if (filter.action) query = query.where('action', '=', filter.action);
    if (filter.actionPrefix) query = query.where('action', 'like', `${filter.actionPrefix}%`);
    if (filter.ip) query = query.where('ip', '=', filter.ip);
    if (filter.apiKeyId) query = query.where('api_key_id', '=', filter.apiKeyId);
    return query;
  }

  count(filter: AuditRowFilter): Promise<number> {
    return countRows(this.filtered(filter));
  }

  /** Newest first. */
  page(filter: AuditRowFilter, page: PageRequest): Promise<{ rows: AuditRow[]; total: number }> {
    return pageRows(this.filtered(filter), page, (entries) =>
      entries.selectAll().orderBy('at', 'desc').orderBy('id', 'desc'),
    );
  }

  /** Newest first, `chunk` rows per query, each chunk starting after the last row of the one before (no offsets). */
  async *scan(filter: AuditRowFilter, limit: number, chunk = 1000): AsyncGenerator<AuditRow> {
    let after: { at: string; id: string } | null = null;
    let left = limit;
    while (left > 0) {
      let query = this.filtered(filter).selectAll();
      if (after) {
        const { at, id } = after;
        query = query.where((eb) => eb.or([eb('at', '<', at), eb.and([eb('at', '=', at), eb('id', '<', id)])]));
      }
      const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(Math.min(chunk, left)).execute();
      yield* rows;
      const last = rows.at(-1);
      if (!last || rows.length < Math.min(chunk, left)) return;
      left -= rows.length;
      after = { at: last.at, id: last.id };
    }
  }

  /** Deletes every entry older than `cutoff`, batch by batch; answers how many went. */
  async deleteBefore(cutoff: string): Promise<number> {
    let deleted = 0;
    for (;;) {
      const result = await this.db
        .deleteFrom('audit_log')
        .where('id', 'in', (eb) => eb.selectFrom('audit_log').select('id').where('at', '<', cutoff).limit(PRUNE_BATCH))
        .executeTakeFirst();
      const n = Number(result.numDeletedRows);
      deleted += n;
      if (n < PRUNE_BATCH) return deleted;
    }
  }
}
