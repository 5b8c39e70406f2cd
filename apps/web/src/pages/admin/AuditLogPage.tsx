import type { AuditEntry, AuditFilter } from '@huafang/contracts';
import { useState } from 'react';
import { useIsPhone } from '../../common/use-screen';
import { PageHead } from '../../components/PageHead';
import { AuditDetailDrawer } from '../../features/admin/audit/AuditDetailDrawer';
import { AuditFilterForm } from '../../features/admin/audit/AuditFilterForm';
import { AuditLogList } from '../../features/admin/audit/AuditLogList';
import { AuditLogTable } from '../../features/admin/audit/AuditLogTable';
import { auditFilterOf, isFiltered } from '../../features/admin/audit/audit-filter';
import { useAuditExport } from '../../features/admin/audit/use-audit-export';
import { useFilteredPagedQuery } from '../../features/admin/use-paged-query';
import { auditKeys, fetchAuditLog } from '../../services/audit';
import '../../features/admin/admin-pages.css';
import '../../features/admin/audit/audit-log.css';

/** 审计日志: who did what, when and from where (docs/compliance.md § 日志), filtered, read and exported as CSV. */
export default function AuditLogPage() {
  const isPhone = useIsPhone();
  const [shown, setShown] = useState<AuditEntry | null>(null);
  const { exportCsv, exporting } = useAuditExport();
  const {
    filter,
    changeFilter: search,
    tableProps,
  } = useFilteredPagedQuery<AuditFilter, AuditEntry>(() => auditFilterOf({}), auditKeys.list, fetchAuditLog);

  const emptyText = isFiltered(filter) ? '没有符合条件的记录' : '暂无审计日志';

  return (
    <div className="hf-page">
      <PageHead title="审计日志" />
      <div className="hf-panel hf-audit-panel">
        <AuditFilterForm onSearch={search} onExport={exportCsv} exporting={exporting} />
        {isPhone ? (
          <AuditLogList
            entries={tableProps.dataSource as AuditEntry[] | undefined}
            loading={Boolean(tableProps.loading)}
            pagination={tableProps.pagination || {}}
            emptyText={emptyText}
            onShow={setShown}
          />
        ) : (
          <AuditLogTable tableProps={tableProps} emptyText={emptyText} onShow={setShown} />
        )}
      </div>
      <AuditDetailDrawer entry={shown} onClose={() => setShown(null)} />
    </div>
  );
}
