import { PlusOutlined } from '@ant-design/icons';
import type { InviteCodeItem } from '@huafang/contracts';
import { Button, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../common/format-date-time';
import { PageHead } from '../../components/PageHead';
import { CreateInviteCodeDialog } from '../../features/admin/CreateInviteCodeDialog';
import { inviteCodeTypeLabel } from '../../features/admin/invite-code-types';
import { usePagedQuery } from '../../features/admin/use-paged-query';
import { adminKeys, fetchInviteCodes } from '../../services/admin';

const COLUMNS: TableColumnsType<InviteCodeItem> = [
  {
    title: '邀请码',
    dataIndex: 'code',
    render: (code: string) => (
      <Typography.Text copyable={{ tooltips: ['复制', '已复制'] }} code>
        {code}
      </Typography.Text>
    ),
  },
  {
    title: '类型',
    dataIndex: 'codeType',
    width: 120,
    render: (codeType: string) => (
      <Tag color={codeType === '01' ? 'purple' : 'blue'}>{inviteCodeTypeLabel(codeType)}</Tag>
    ),
  },
  {
    title: '已用 / 上限',
    key: 'uses',
    width: 120,
    render: (_value, item) => `${item.usedCount} / ${item.maxUses}`,
  },
  { title: '备注', dataIndex: 'remark', render: (remark: string | null) => remark || '—' },
  { title: '创建时间', dataIndex: 'createdAt', width: 170, render: formatDateTime },
];

export default function InviteCodesPage() {
  const [creating, setCreating] = useState(false);
  const { tableProps, reload } = usePagedQuery(adminKeys.inviteCodes, fetchInviteCodes);

  function onCreated() {
    setCreating(false);
    reload();
  }

  return (
    <div className="hf-page">
      <PageHead title="邀请码">
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          新建邀请码
        </Button>
      </PageHead>
      <div className="hf-panel">
        <Table<InviteCodeItem>
          rowKey="id"
          columns={COLUMNS}
          locale={{ emptyText: '暂无邀请码，点击右上角新建' }}
          {...tableProps}
        />
      </div>
      <CreateInviteCodeDialog open={creating} onClose={() => setCreating(false)} onCreated={onCreated} />
    </div>
  );
}
