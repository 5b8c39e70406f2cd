import { useQuery } from '@tanstack/react-query';
import { Badge, Tabs } from 'antd';
import { PageHead } from '../../components/PageHead';
import { ModerationHistoryTable } from '../../features/gallery/ModerationHistoryTable';
import { ModerationQueueTable } from '../../features/gallery/ModerationQueueTable';
import { PublishedWorksTable } from '../../features/gallery/PublishedWorksTable';
import { reviewQueries } from '../../services/work-moderation';
import '../../features/admin/admin-pages.css';
import '../../features/gallery/gallery.css';

/**
 * 作品审核: the published works (hide or restore one), 待审核 (works the moderation provider flagged or users
 * reported, decided 通过 or 下架) and 审核记录 (every decision with who and when).
 */
export default function WorkReviewPage() {
  const waiting = useQuery(reviewQueries.queueCount()).data ?? 0;
  return (
    <div className="hf-page">
      <PageHead title="作品审核" />
      <div className="hf-panel">
        <Tabs
          items={[
            { key: 'published', label: '已发布作品', children: <PublishedWorksTable /> },
            {
              key: 'queue',
              label: (
                <span className="hf-review-tab">
                  待审核
                  {waiting > 0 && <Badge count={waiting} size="small" aria-label={`${waiting} 个待审核`} />}
                </span>
              ),
              children: <ModerationQueueTable />,
            },
            { key: 'history', label: '审核记录', children: <ModerationHistoryTable /> },
          ]}
        />
      </div>
    </div>
  );
}
