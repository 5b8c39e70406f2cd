import { useQueryClient } from '@tanstack/react-query';
import { Segmented, Table } from 'antd';
import { useState } from 'react';
import { PageHead } from '../../components/PageHead';
import { usePagedQuery } from '../../features/admin/use-paged-query';
import { worksKeys } from '../../features/gallery/gallery-queries';
import { reviewColumns } from '../../features/gallery/review-columns';
import { toast } from '../../services/notices';
import { fetchReviewWorks, type ReviewStatus, type ReviewWorkItem, setWorkHidden } from '../../services/works';
import '../../features/admin/admin-pages.css';
import '../../features/gallery/gallery.css';

const REVIEW_KEY = ['admin', 'works', 'review'] as const;
const STATUS_OPTIONS: { label: string; value: ReviewStatus }[] = [
  { label: '全部', value: 'all' },
  { label: '正常', value: 'visible' },
  { label: '已隐藏', value: 'hidden' },
];

/** 作品审核: every published work; hiding one takes it off 灵感广场 without touching the author's copy. */
export default function WorkReviewPage() {
  const [status, setStatus] = useState<ReviewStatus>('all');
  const queryClient = useQueryClient();
  const { tableProps, reload } = usePagedQuery([...REVIEW_KEY, status], (page) =>
    fetchReviewWorks({ ...page, status }),
  );

  function changeStatus(next: ReviewStatus) {
    setStatus(next);
    reload();
  }

  async function setHidden(id: string, hidden: boolean) {
    try {
      toast(await setWorkHidden(id, hidden), 'success');
    } catch {
      // The request layer has shown why.
      return;
    }
    // Stay on this page of the table; the public galleries change too.
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: REVIEW_KEY }),
      queryClient.invalidateQueries({ queryKey: worksKeys.all }),
    ]);
  }

  return (
    <div className="hf-page">
      <PageHead title="作品审核">
        <Segmented<ReviewStatus>
          aria-label="按状态筛选"
          options={STATUS_OPTIONS}
          value={status}
          onChange={changeStatus}
        />
      </PageHead>
      <div className="hf-panel">
        <Table<ReviewWorkItem>
          rowKey="id"
          columns={reviewColumns(setHidden)}
          locale={{ emptyText: status === 'hidden' ? '没有已隐藏的作品' : '还没有发布到灵感广场的作品' }}
          {...tableProps}
        />
      </div>
    </div>
  );
}
