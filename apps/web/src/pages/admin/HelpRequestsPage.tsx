import type { HelpRequest } from '@huafang/contracts';
import { Table, type TableColumnsType, Tag, Typography } from 'antd';
import { formatDateTime } from '../../common/format-date-time';
import { PageHead } from '../../components/PageHead';
import { usePagedQuery } from '../../features/admin/use-paged-query';
import { adminKeys, fetchHelpRequests } from '../../services/admin';

const COLUMNS: TableColumnsType<HelpRequest> = [
  { title: '问题类型', dataIndex: 'typeName', width: 120, render: (name: string) => <Tag>{name}</Tag> },
  {
    title: '问题描述',
    dataIndex: 'content',
    render: (content: string) => (
      <Typography.Paragraph
        ellipsis={{ rows: 2, expandable: 'collapsible', symbol: (open) => (open ? '收起' : '展开') }}
      >
        {content}
      </Typography.Paragraph>
    ),
  },
  { title: '联系方式', dataIndex: 'contact', width: 160, render: (contact: string | null) => contact || '—' },
  {
    title: '用户',
    key: 'user',
    width: 140,
    render: (_value, item) => item.userName || item.userId,
  },
  { title: '提交时间', dataIndex: 'createdAt', width: 170, render: formatDateTime },
];

export default function HelpRequestsPage() {
  const { tableProps } = usePagedQuery(adminKeys.helpRequests, fetchHelpRequests);

  return (
    <div className="hf-page">
      <PageHead title="帮助反馈" />
      <div className="hf-panel">
        <Table<HelpRequest> rowKey="id" columns={COLUMNS} locale={{ emptyText: '暂无用户反馈' }} {...tableProps} />
      </div>
    </div>
  );
}
