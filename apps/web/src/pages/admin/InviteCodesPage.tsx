import { PlusOutlined } from '@ant-design/icons';
import type { InviteCodeItem } from '@huafang/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { CreateInviteCodeDialog } from '../../features/admin/CreateInviteCodeDialog';
import { formatDateTime } from '../../features/admin/format';
import { inviteCodeTypeLabel } from '../../features/admin/invite-code-types';
import { fetchInviteCodes } from '../../services/admin';

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
  const [page, setPage] = useState({ current: 1, pageSize: 10 });
  const [creating, setCreating] = useState(false);
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['admin', 'inviteCodes', page],
    queryFn: () => fetchInviteCodes(page),
    placeholderData: keepPreviousData,
  });

  function onCreated() {
    setCreating(false);
    setPage((current) => ({ ...current, current: 1 }));
    void queryClient.invalidateQueries({ queryKey: ['admin', 'inviteCodes'] });
  }

  return (
    <div className="hf-page">
      <div className="hf-page-head">
        <Typography.Title level={3} className="hf-page-title">
          邀请码
        </Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          新建邀请码
        </Button>
      </div>
      <div className="hf-panel">
        <Table<InviteCodeItem>
          rowKey="id"
          columns={COLUMNS}
          dataSource={query.data?.list}
          loading={query.isFetching}
          locale={{ emptyText: '暂无邀请码，点击右上角新建' }}
          pagination={{
            current: page.current,
            pageSize: page.pageSize,
            total: query.data?.total ?? 0,
            showSizeChanger: true,
            showTotal: (total) => `共 ${total} 条`,
            onChange: (current, pageSize) => setPage({ current, pageSize }),
          }}
        />
      </div>
      <CreateInviteCodeDialog open={creating} onClose={() => setCreating(false)} onCreated={onCreated} />
    </div>
  );
}
