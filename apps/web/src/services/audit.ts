import type { AuditEntry, AuditFilter, Page, PageQuery } from '@huafang/contracts';
import { http, requestBlob } from './request';

/** The filters as sent: empty ones left out, days in the browser's zone (`tzOffset`). */
export type AuditLogFilter = AuditFilter;

export function fetchAuditLog(filter: AuditLogFilter, page: PageQuery) {
  return http.get<Page<AuditEntry>>('/api/admin/audit-log', { ...filter, ...page });
}

/**
 * 导出 CSV: the matching entries as a file, read with the bearer header (an <a href> cannot send it); the server's
 * refusal (more than AUDIT_EXPORT_MAX rows) is shown like any other.
 */
export function downloadAuditCsv(filter: AuditLogFilter) {
  return requestBlob('/api/admin/audit-log/export', { params: filter });
}

export const auditKeys = {
  all: ['admin', 'auditLog'] as const,
  list: (filter: AuditLogFilter) => [...auditKeys.all, filter] as const,
};
