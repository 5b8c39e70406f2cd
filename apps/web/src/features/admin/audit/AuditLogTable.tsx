import type { AuditEntry } from '@huafang/contracts';
import { Button, Table, type TableColumnsType, type TableProps, Tag, Typography } from 'antd';
import { actionColor, actionLabel, auditSummary, roleLabel, targetText } from './audit-detail';
import { auditTime } from './audit-format';

const orDash = (value: string | null) => value || '—';

function columns(onShow: (entry: AuditEntry) => void): TableColumnsType<AuditEntry> {
  return [
    { title: '时间', dataIndex: 'at', width: 170, className: 'hf-audit-nowrap', render: auditTime },
    {
      title: '操作',
      dataIndex: 'action',
      width: 120,
      render: (_action, entry) => <Tag color={actionColor(entry)}>{actionLabel(entry)}</Tag>,
    },
    {
      title: '用户',
      key: 'user',
      width: 170,
      render: (_value, entry) =>
        entry.userId || entry.mobile ? (
          <div className="hf-audit-user">
            <span>{entry.actorName ?? orDash(entry.mobile)}</span>
            {entry.actorName && entry.mobile && <span className="hf-audit-id">{entry.mobile}</span>}
            {entry.userId && (
              <Typography.Text className="hf-audit-id" type="secondary" ellipsis={{ tooltip: entry.userId }}>
                {entry.userId}
              </Typography.Text>
            )}
          </div>
        ) : (
          '—'
        ),
    },
    { title: '角色', dataIndex: 'role', width: 72, render: (_role, entry) => roleLabel(entry) },
    { title: 'IP 地址', dataIndex: 'ip', width: 130, render: orDash },
    {
      title: '对象',
      key: 'target',
      width: 150,
      render: (_value, entry) => {
        const target = targetText(entry);
        return target ? <Typography.Text ellipsis={{ tooltip: target }}>{target}</Typography.Text> : '—';
      },
    },
    {
      title: '详情',
      key: 'detail',
      // Pinned, so 查看 stays in reach when the table scrolls sideways.
      fixed: 'right',
      width: 260,
      render: (_value, entry) => (
        <div className="hf-audit-detail-cell">
          <Typography.Text ellipsis={{ tooltip: auditSummary(entry) || undefined }} className="hf-audit-summary">
            {auditSummary(entry) || '—'}
          </Typography.Text>
          <Button type="link" size="small" onClick={() => onShow(entry)}>
            查看
          </Button>
        </div>
      ),
    },
  ];
}

interface AuditLogTableProps {
  tableProps: TableProps<AuditEntry>;
  emptyText: string;
  onShow: (entry: AuditEntry) => void;
}

/** Desktops and tablets: one entry a row; the table scrolls sideways inside its card when the screen is narrower. */
export function AuditLogTable({ tableProps, emptyText, onShow }: AuditLogTableProps) {
  return (
    <Table<AuditEntry>
      rowKey="id"
      columns={columns(onShow)}
      locale={{ emptyText }}
      scroll={{ x: 1072 }}
      {...tableProps}
    />
  );
}
