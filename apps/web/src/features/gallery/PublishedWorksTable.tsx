import { useQueryClient } from '@tanstack/react-query';
import { Table } from 'antd';
import { toast } from '../../services/notices';
import { reviewKeys } from '../../services/work-moderation';
import {
  fetchReviewWorks,
  type ReviewStatus,
  type ReviewWorkItem,
  setWorkHidden,
  worksKeys,
} from '../../services/works';
import { useFilteredPagedQuery } from '../admin/use-paged-query';
import { ReviewFilter } from './ReviewFilter';
import { reviewColumns } from './review-columns';

const STATUS_OPTIONS: { label: string; value: ReviewStatus }[] = [
  { label: '全部', value: 'all' },
  { label: '正常', value: 'visible' },
  { label: '已隐藏', value: 'hidden' },
];

/** 已发布作品: every published work; hiding one takes it off 灵感广场 without touching the author's copy. */
export function PublishedWorksTable() {
  const queryClient = useQueryClient();
  const {
    filter: status,
    changeFilter: changeStatus,
    tableProps,
  } = useFilteredPagedQuery<ReviewStatus, ReviewWorkItem>('all', reviewKeys.publishedByStatus, (status, page) =>
    fetchReviewWorks({ ...page, status }),
  );

  async function setHidden(id: string, hidden: boolean) {
    try {
      toast(await setWorkHidden(id, hidden), 'success');
    } catch {
      // The request layer has shown why.
      return;
    }
    // Stay on this page of the table; the public galleries change too.
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: reviewKeys.published }),
      queryClient.invalidateQueries({ queryKey: worksKeys.all }),
    ]);
  }

  return (
    <>
      <ReviewFilter label="按状态筛选" options={STATUS_OPTIONS} value={status} onChange={changeStatus} />
      <Table<ReviewWorkItem>
        rowKey="id"
        columns={reviewColumns(setHidden)}
        locale={{ emptyText: status === 'hidden' ? '没有已隐藏的作品' : '还没有发布到灵感广场的作品' }}
        {...tableProps}
      />
    </>
  );
}
