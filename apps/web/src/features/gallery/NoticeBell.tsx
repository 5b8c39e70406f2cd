import { BellOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Drawer, Empty, Pagination, Result, Skeleton, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { formatDateTime } from '../../common/format-date-time';
import { markNoticesRead, userNoticeKeys, userNoticeQueries } from '../../services/user-notices';

/**
 * 通知 in 我的作品: a bell with the number of unread notices (a work taken down, and why). Opening the list marks
 * them read; the ones new to this opening keep their 未读 tag until it closes.
 */
export function NoticeBell() {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [page, setPage] = useState(1);
  const unread = useQuery(userNoticeQueries.unread());
  const notices = useQuery({ ...userNoticeQueries.page(page), enabled: open });
  const count = unread.data?.unread ?? 0;
  const hasUnread = (notices.data?.unread ?? 0) > 0;

  useEffect(() => {
    if (!open || !hasUnread) return;
    void markNoticesRead().then(() => queryClient.invalidateQueries({ queryKey: userNoticeKeys.unread }));
  }, [open, hasUnread, queryClient]);

  function close() {
    setOpen(false);
    setPage(1);
    void queryClient.invalidateQueries({ queryKey: userNoticeKeys.all });
  }

  return (
    <>
      <Badge count={count} size="small" offset={[-4, 4]}>
        <Button
          icon={<BellOutlined />}
          onClick={() => setOpen(true)}
          aria-label={count ? `通知（${count} 条未读）` : '通知'}
        >
          通知
        </Button>
      </Badge>
      <Drawer title="通知" open={open} onClose={close} width="min(420px, 100vw)" className="hf-notice-drawer">
        {notices.isPending ? (
          <Skeleton active avatar paragraph={{ rows: 3 }} />
        ) : notices.isError ? (
          <Result
            status="warning"
            subTitle="通知加载失败"
            extra={<Button onClick={() => void notices.refetch()}>重试</Button>}
          />
        ) : notices.data.list.length === 0 ? (
          <Empty description="暂时没有通知" />
        ) : (
          <>
            <ul className="hf-notice-list" aria-label="通知列表">
              {notices.data.list.map((notice) => (
                <li key={notice.id} className="hf-notice">
                  {notice.thumbUrl ? (
                    <img className="hf-notice-thumb" src={notice.thumbUrl} alt="相关作品" />
                  ) : (
                    <span className="hf-notice-thumb is-gone">已删除</span>
                  )}
                  <div className="hf-notice-text">
                    <div className="hf-notice-title">
                      {notice.title}
                      {!notice.read && <Tag color="red">未读</Tag>}
                    </div>
                    <p>{notice.body}</p>
                    <time dateTime={notice.createdAt}>{formatDateTime(notice.createdAt)}</time>
                  </div>
                </li>
              ))}
            </ul>
            {notices.data.total > notices.data.pageSize && (
              <Pagination
                size="small"
                current={page}
                pageSize={notices.data.pageSize}
                total={notices.data.total}
                onChange={setPage}
                showSizeChanger={false}
              />
            )}
          </>
        )}
      </Drawer>
    </>
  );
}
