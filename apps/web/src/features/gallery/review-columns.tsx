import { Button, type TableColumnsType, Tag, Typography } from 'antd';
import { ConfirmAction } from '../../common/ConfirmAction';
import { formatDateTime } from '../../common/format-date-time';
import type { ReviewWorkItem } from '../../services/works';
import { AuthorBadge } from './AuthorBadge';
import { WorkThumb } from './WorkThumb';

/** The columns of 作品审核; `onHide(id, hidden)` hides or restores a work after the admin confirms. */
export function reviewColumns(
  onHide: (id: string, hidden: boolean) => Promise<void>,
): TableColumnsType<ReviewWorkItem> {
  return [
    {
      title: '作品',
      dataIndex: 'thumbUrl',
      width: 88,
      render: (_thumbUrl: string, work) => <WorkThumb work={work} />,
    },
    {
      title: '作者',
      dataIndex: 'author',
      width: 160,
      render: (author: ReviewWorkItem['author']) => <AuthorBadge author={author} />,
    },
    { title: '模板', dataIndex: 'templateName', width: 140, render: (name: string) => name || '自由创作' },
    {
      title: '提示词',
      dataIndex: 'prompt',
      render: (prompt: string) => (
        <Typography.Paragraph ellipsis={{ rows: 2, tooltip: prompt }} className="hf-review-prompt">
          {prompt || '—'}
        </Typography.Paragraph>
      ),
    },
    { title: '发布时间', dataIndex: 'publishedAt', width: 150, render: formatDateTime },
    { title: '浏览', dataIndex: 'views', width: 72, align: 'right' },
    {
      title: '状态',
      dataIndex: 'hidden',
      width: 90,
      render: (hidden: boolean) => (hidden ? <Tag color="red">已隐藏</Tag> : <Tag color="green">正常</Tag>),
    },
    {
      title: '操作',
      key: 'actions',
      width: 90,
      render: (_value, work) => (
        <ConfirmAction
          title={work.hidden ? '恢复显示这个作品？' : '隐藏这个作品？'}
          description={work.hidden ? '作品将重新出现在灵感广场。' : '作品将从灵感广场下架，作者仍能在我的作品中看到。'}
          okText={work.hidden ? '恢复' : '隐藏'}
          danger={!work.hidden}
          onConfirm={() => onHide(work.id, !work.hidden)}
        >
          <Button type="link" size="small" danger={!work.hidden}>
            {work.hidden ? '恢复' : '隐藏'}
          </Button>
        </ConfirmAction>
      ),
    },
  ];
}
