import type { AuditEntry } from '@huafang/contracts';
import { Button, Empty, Pagination, type PaginationProps, Spin, Tag } from 'antd';
import { actionColor, actionLabel, auditSummary, roleLabel, targetText } from './audit-detail';
import { auditTime } from './audit-format';

interface AuditLogListProps {
  entries: AuditEntry[] | undefined;
  loading: boolean;
  pagination: PaginationProps;
  emptyText: string;
  onShow: (entry: AuditEntry) => void;
}

/** Phones: one card per entry (time and action, who and from where, a line of detail), 详情 opens the rest. */
export function AuditLogList({ entries, loading, pagination, emptyText, onShow }: AuditLogListProps) {
  return (
    <Spin spinning={loading}>
      {entries && entries.length > 0 ? (
        <ul className="hf-audit-list" aria-label="审计日志">
          {entries.map((entry) => {
            const summary = auditSummary(entry);
            return (
              <li key={entry.id} className="hf-audit-item">
                <div className="hf-audit-item-head">
                  <Tag color={actionColor(entry)}>{actionLabel(entry)}</Tag>
                  <time dateTime={entry.at}>{auditTime(entry.at)}</time>
                </div>
                <div className="hf-audit-item-meta">
                  {[entry.actorName, entry.mobile, roleLabel(entry), entry.ip, targetText(entry)]
                    .filter(Boolean)
                    .join(' · ')}
                </div>
                {summary && <div className="hf-audit-item-summary">{summary}</div>}
                <Button size="small" onClick={() => onShow(entry)} className="hf-audit-item-more">
                  详情
                </Button>
              </li>
            );
          })}
        </ul>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={loading ? '加载中…' : emptyText} />
      )}
      <Pagination {...pagination} simple showSizeChanger={false} className="hf-audit-pagination" />
    </Spin>
  );
}
