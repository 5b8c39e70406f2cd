import { MODERATION_DECISION_LABELS, type ModerationHistoryEntry } from '@huafang/contracts';
import { Table, type TableColumnsType, Tag, Typography } from 'antd';
import { formatDateTime } from '../../common/format-date-time';
import { fetchModerationHistory, reviewKeys } from '../../services/work-moderation';
import { usePagedQuery } from '../admin/use-paged-query';
import { AuthorBadge } from './AuthorBadge';
import { ReasonCounts } from './ModerationReasons';
import { WorkThumb } from './WorkThumb';

const COLUMNS: TableColumnsType<ModerationHistoryEntry> = [
  { title: '时间', dataIndex: 'createdAt', width: 150, render: formatDateTime },
  {
    title: '作品',
    key: 'work',
    width: 88,
    render: (_value, { work }) =>
      work ? <WorkThumb work={work} /> : <Typography.Text type="secondary">作品已删除</Typography.Text>,
  },
  {
    title: '作者',
    key: 'author',
    width: 150,
    render: (_value, { work }) => (work ? <AuthorBadge author={work.author} /> : '—'),
  },
  {
    title: '决定',
    dataIndex: 'decision',
    width: 80,
    render: (decision: ModerationHistoryEntry['decision']) => (
      <Tag color={decision === 'remove' ? 'red' : 'green'}>{MODERATION_DECISION_LABELS[decision]}</Tag>
    ),
  },
  {
    title: '处理的原因',
    dataIndex: 'reasons',
    render: (reasons: ModerationHistoryEntry['reasons']) => <ReasonCounts reasons={reasons} />,
  },
  { title: '管理员', dataIndex: 'admin', width: 120 },
  {
    title: '备注',
    dataIndex: 'note',
    width: 200,
    render: (note: string | null) => note ?? '—',
  },
];

/** 审核记录: every decision, newest first, with who made it and when. */
export function ModerationHistoryTable() {
  const { tableProps } = usePagedQuery(reviewKeys.history, (page) => fetchModerationHistory(page));
  return (
    <Table<ModerationHistoryEntry>
      rowKey="id"
      columns={COLUMNS}
      scroll={{ x: 960 }}
      locale={{ emptyText: '还没有审核记录' }}
      {...tableProps}
    />
  );
}
