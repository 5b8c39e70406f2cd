import type { AuditEntry } from '@huafang/contracts';
import { Descriptions, type DescriptionsProps, Drawer, Tag } from 'antd';
import { useState } from 'react';
import { useDrawerSize } from '../../../common/use-screen';
import { actionColor, actionLabel, auditDetailRows, roleLabel, targetText } from './audit-detail';
import { auditTime } from './audit-format';

function items(entry: AuditEntry): DescriptionsProps['items'] {
  const orDash = (value: string | null) => value || '—';
  return [
    { key: 'at', label: '时间', children: auditTime(entry.at) },
    {
      key: 'action',
      label: '操作',
      children: (
        <span className="hf-admin-name">
          <Tag color={actionColor(entry)}>{actionLabel(entry)}</Tag>
          <code className="hf-muted">{entry.action}</code>
        </span>
      ),
    },
    { key: 'userId', label: '用户编号', children: orDash(entry.userId) },
    { key: 'actor', label: '操作人', children: orDash(entry.actorName) },
    { key: 'mobile', label: '手机号', children: orDash(entry.mobile) },
    { key: 'role', label: '角色', children: roleLabel(entry) },
    { key: 'ip', label: 'IP 地址', children: orDash(entry.ip) },
    { key: 'apiKeyId', label: 'API 密钥', children: orDash(entry.apiKeyId) },
    { key: 'target', label: '对象', children: orDash(targetText(entry)) },
    ...auditDetailRows(entry).map((row) => ({
      key: `detail-${row.key}`,
      label: row.label,
      children: row.block ? <pre className="hf-audit-pre">{row.value}</pre> : row.value,
    })),
  ];
}

/** Everything one entry holds, its detail in named lines; the whole screen on a phone. */
export function AuditDetailDrawer({ entry, onClose }: { entry: AuditEntry | null; onClose: () => void }) {
  const size = useDrawerSize(560);
  // The last entry shown stays while the drawer slides away.
  const [shown, setShown] = useState(entry);
  if (entry && entry !== shown) setShown(entry);
  return (
    <Drawer title="日志详情" open={entry !== null} onClose={onClose} size={size}>
      {shown && (
        <Descriptions
          column={1}
          bordered
          size="small"
          items={items(shown)}
          className="hf-audit-descriptions"
          styles={{ label: { width: 110 } }}
        />
      )}
    </Drawer>
  );
}
