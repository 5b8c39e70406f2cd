import type { ModerationQueueItem } from '@huafang/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../common/format-date-time';
import { fetchModerationQueue, type ModerationQueueKind, reviewKeys } from '../../services/work-moderation';
import { worksKeys } from '../../services/works';
import { useFilteredPagedQuery } from '../admin/use-paged-query';
import { AuthorBadge } from './AuthorBadge';
import { ModerationDecisionDialog, type PendingDecision } from './ModerationDecisionDialog';
import { ModerationItemList } from './ModerationReasons';
import { ReviewFilter } from './ReviewFilter';
import { WorkThumb } from './WorkThumb';

const KIND_OPTIONS: { label: string; value: ModerationQueueKind }[] = [
  { label: '全部', value: 'all' },
  { label: '内容审核标记', value: 'flagged' },
  { label: '用户举报', value: 'reported' },
];

function stateOf(work: ModerationQueueItem['work']) {
  if (work.public) return <Tag color="green">公开中</Tag>;
  if (work.publishPending) return <Tag color="orange">等待发布</Tag>;
  return <Tag>私有</Tag>;
}

function columns(decide: (pending: PendingDecision) => void): TableColumnsType<ModerationQueueItem> {
  return [
    {
      title: '作品',
      key: 'work',
      width: 88,
      render: (_value, { work }) => <WorkThumb work={work} />,
    },
    {
      title: '待审核原因',
      key: 'items',
      width: 300,
      render: (_value, entry) => <ModerationItemList items={entry.items} />,
    },
    {
      title: '作者',
      key: 'author',
      width: 150,
      render: (_value, { work }) => <AuthorBadge author={work.author} />,
    },
    {
      title: '提示词',
      key: 'prompt',
      render: (_value, { work }) => (
        <Typography.Paragraph ellipsis={{ rows: 2, tooltip: work.prompt }} className="hf-review-prompt">
          {work.prompt || '—'}
        </Typography.Paragraph>
      ),
    },
    { title: '状态', key: 'state', width: 96, render: (_value, { work }) => stateOf(work) },
    { title: '等待自', dataIndex: 'since', width: 150, render: formatDateTime },
    {
      title: '操作',
      key: 'actions',
      width: 120,
      fixed: 'right',
      render: (_value, entry) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => decide({ entry, decision: 'approve' })}>
            通过
          </Button>
          <Button type="link" size="small" danger onClick={() => decide({ entry, decision: 'remove' })}>
            下架
          </Button>
        </Space>
      ),
    },
  ];
}

/** 待审核: works the provider flagged or users reported, the longest-waiting first, each with every reason. */
export function ModerationQueueTable() {
  const [pending, setPending] = useState<PendingDecision | null>(null);
  const queryClient = useQueryClient();
  const {
    filter: kind,
    changeFilter: changeKind,
    tableProps,
  } = useFilteredPagedQuery<ModerationQueueKind, ModerationQueueItem>('all', reviewKeys.queue, (kind, page) =>
    fetchModerationQueue({ ...page, kind }),
  );

  function decided() {
    // The queue, its count, the published list and history change; so may 灵感广场.
    void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
    void queryClient.invalidateQueries({ queryKey: worksKeys.all });
  }

  return (
    <>
      <ReviewFilter label="按来源筛选" options={KIND_OPTIONS} value={kind} onChange={changeKind} />
      <Table<ModerationQueueItem>
        rowKey={(entry) => entry.work.id}
        columns={columns(setPending)}
        scroll={{ x: 1080 }}
        locale={{ emptyText: '没有待审核的作品' }}
        {...tableProps}
      />
      <ModerationDecisionDialog pending={pending} onClose={() => setPending(null)} onDecided={decided} />
    </>
  );
}
