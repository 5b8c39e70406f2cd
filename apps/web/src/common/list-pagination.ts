import type { PaginationProps } from 'antd';

/** The pager under a short list (算力明细, 我的订单): hidden while everything fits on one page. */
export function listPagination(
  current: number,
  pageSize: number,
  total: number,
  onChange: (page: number) => void,
): PaginationProps | false {
  if (total <= pageSize) return false;
  return {
    current,
    pageSize,
    total,
    onChange,
    showSizeChanger: false,
    showTotal: (count) => `共 ${count} 条`,
    size: 'small',
  };
}
