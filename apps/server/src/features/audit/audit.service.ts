import { Readable } from 'node:stream';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_CSV_HEADERS,
  AUDIT_EXPORT_MAX,
  AUDIT_ROLE_LABELS,
  type AuditAction,
  type AuditEntry,
  type AuditFilter,
  type AuditRole,
  auditEntrySchema,
  type Page,
} from '@huafang/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { fail } from '../../platform/errors.js';
import type { AuditRepository, AuditRow, AuditRowFilter } from './audit.repository.js';
import type { AuditOrigin, AuditRecorder } from './audit-recorder.js';

const DAY_MS = 86_400_000;

const detailSchema = auditEntrySchema.shape.detail;

function toEntry(row: AuditRow, actorNames: Map<string, string>): AuditEntry {
  const detail = detailSchema.parse(JSON.parse(row.detail));
  return {
    id: row.id,
    at: row.at,
    action: row.action as AuditAction,
    userId: row.actor_user_id,
    actorName: row.actor_user_id ? (actorNames.get(row.actor_user_id) ?? null) : null,
    mobile: row.actor_mobile_masked,
    role: row.actor_role as AuditRole,
    apiKeyId: row.api_key_id,
    ip: row.ip,
    targetType: row.target_type,
    targetId: row.target_id,
    targetName: typeof detail.targetName === 'string' ? detail.targetName : null,
    detail,
  };
}

/** Trail rows as entries, each actor named by nickname, else account (looked up now, so a rename shows). */
export async function auditEntries(repo: AuditRepository, rows: AuditRow[]): Promise<AuditEntry[]> {
  const actorIds = [...new Set(rows.flatMap((row) => (row.actor_user_id ? [row.actor_user_id] : [])))];
  const names = new Map(
    (await repo.names(actorIds)).flatMap((user) => {
      const name = user.nickname || user.account;
      return name ? [[user.id, name] as const] : [];
    }),
  );
  return rows.map((row) => toEntry(row, names));
}

/** One CSV cell: quoted when needed, and a leading = + - @ defused so a spreadsheet never runs a prompt as a formula. */
function cell(value: string | null): string {
  const text = value ?? '';
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** An ISO time in the admin's zone with its offset, e.g. 2026-03-01T08:00:00+08:00: readable and unambiguous. */
function localTime(iso: string, tzOffset: number): string {
  const local = new Date(Date.parse(iso) - tzOffset * 60_000).toISOString().slice(0, 19);
  const minutes = Math.abs(tzOffset);
  const sign = tzOffset <= 0 ? '+' : '-';
  return `${local}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

function csvLine(row: AuditRow, tzOffset: number): string {
  const action = row.action as AuditAction;
  return `${[
    localTime(row.at, tzOffset),
    AUDIT_ACTION_LABELS[action] ?? row.action,
    row.action,
    row.actor_user_id,
    row.actor_mobile_masked,
    AUDIT_ROLE_LABELS[row.actor_role as AuditRole] ?? row.actor_role,
    row.api_key_id,
    row.ip,
    row.target_type,
    row.target_id,
    row.detail,
  ]
    .map(cell)
    .join(',')}\r\n`;
}

/** 审计日志 for admins (pages and CSV export) and its retention: entries older than retentionDays are pruned daily. */
export class AuditService {
  constructor(
    private readonly repo: AuditRepository,
    readonly recorder: AuditRecorder,
    private readonly retentionDays: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** What the trail calls the target of an admin request (adminAuditPlugin). */
  targetName(type: string, id: string): Promise<string | undefined> {
    return this.repo.targetName(type, id);
  }

  /** The filters in SQL terms: days in the admin's zone; a mobile becomes the ids of its users (both must match). */
  private async rowFilter(filter: AuditFilter): Promise<AuditRowFilter> {
    const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`) + filter.tzOffset * 60_000;
    let userIds = filter.userId ? [filter.userId] : undefined;
    if (filter.mobile) {
      const owners = await this.repo.userIdsByMobile(filter.mobile);
      userIds = userIds ? userIds.filter((id) => owners.includes(id)) : owners;
    }
    return {
      from: filter.dateFrom ? new Date(dayStart(filter.dateFrom)).toISOString() : undefined,
      to: filter.dateTo ? new Date(dayStart(filter.dateTo) + DAY_MS).toISOString() : undefined,
      // A user filter that matches nobody matches no entry, not every entry.
      userIds: userIds && userIds.length === 0 ? [''] : userIds,
      action: filter.action,
      actionPrefix: filter.category ? `${filter.category}.` : undefined,
      ip: filter.ip,
      apiKeyId: filter.apiKeyId,
    };
  }

  async page(query: AuditFilter & { current: number; pageSize: number }): Promise<Page<AuditEntry>> {
    const filter = await this.rowFilter(query);
    const { rows, total } = await this.repo.page(filter, query);
    return { list: await auditEntries(this.repo, rows), current: query.current, pageSize: query.pageSize, total };
  }

  /**
   * The matching entries as CSV (UTF-8 with a BOM, Chinese headers), newest first, read from the database in
   * chunks while the answer streams. More than AUDIT_EXPORT_MAX rows is refused rather than cut short. The export
   * itself goes into the trail: personal data left the service.
   */
  async exportCsv(adminId: string, origin: AuditOrigin, query: AuditFilter): Promise<Readable> {
    const filter = await this.rowFilter(query);
    const total = await this.repo.count(filter);
    if (total > AUDIT_EXPORT_MAX) {
      throw fail(`符合条件的记录有 ${total} 条，一次最多导出 ${AUDIT_EXPORT_MAX} 条，请缩小日期范围或增加筛选条件`);
    }
    this.recorder.record({
      action: 'admin.audit_export',
      userId: adminId,
      origin,
      detail: { filter: query, rows: total },
    });
    const { repo } = this;
    async function* lines() {
      yield `\uFEFF${AUDIT_CSV_HEADERS.join(',')}\r\n`;
      for await (const row of repo.scan(filter, AUDIT_EXPORT_MAX)) yield csvLine(row, query.tzOffset);
    }
    return Readable.from(lines());
  }

  /** Deletes the entries older than the retention. Concurrent prunes (several workers) are harmless: same cutoff. */
  async prune(now = Date.now()): Promise<number> {
    const cutoff = new Date(now - this.retentionDays * DAY_MS).toISOString();
    const deleted = await this.repo.deleteBefore(cutoff);
    if (deleted > 0) this.log.info({ deleted, cutoff }, 'audit entries past their retention deleted');
    return deleted;
  }
}
