import type { Page, PageQuery } from '@huafang/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TableProps } from 'antd';
import { useState } from 'react';

/**
 * A server-paged admin list: `tableProps` show the current page (the previous one stays while the next loads)
 * and change it; `reload()` goes back to page 1 with fresh data, e.g. after a row was added.
 */
export function usePagedQuery<T>(queryKey: readonly unknown[], fetchPage: (query: PageQuery) => Promise<Page<T>>) {
  const [page, setPage] = useState<PageQuery>({ current: 1, pageSize: 10 });
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: [...queryKey, page],
    queryFn: () => fetchPage(page),
    placeholderData: keepPreviousData,
  });

  const tableProps: TableProps<T> = {
    dataSource: query.data?.list,
    loading: query.isFetching,
    pagination: {
      current: page.current,
      pageSize: page.pageSize,
      total: query.data?.total ?? 0,
      showSizeChanger: true,
      showTotal: (total) => `共 ${total} 条`,
      onChange: (current, pageSize) => setPage({ current, pageSize }),
    },
  };

  function reload() {
    setPage((current) => ({ ...current, current: 1 }));
    void queryClient.invalidateQueries({ queryKey });
  }

  return { tableProps, reload };
}

/**
 * A paged list narrowed by a filter (a search word, a status): `changeFilter` goes back to page 1 and reads again,
 * even when the filter is unchanged, since new rows keep arriving.
 */
export function useFilteredPagedQuery<Filter, T>(
  initialFilter: Filter | (() => Filter),
  queryKeyOf: (filter: Filter) => readonly unknown[],
  fetchPage: (filter: Filter, page: PageQuery) => Promise<Page<T>>,
) {
  const [filter, setFilter] = useState<Filter>(initialFilter);
  const { tableProps, reload } = usePagedQuery(queryKeyOf(filter), (page) => fetchPage(filter, page));

  function changeFilter(next: Filter) {
    setFilter(next);
    reload();
  }

  return { filter, changeFilter, tableProps };
}
