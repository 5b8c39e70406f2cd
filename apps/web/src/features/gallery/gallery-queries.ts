import { keepPreviousData, type Query, type QueryClient, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { fetchFormOptions } from '../../services/options';
import {
  fetchLatestPublicWorks,
  fetchMyWorkDetail,
  fetchMyWorks,
  fetchPublicWorkDetail,
  fetchPublicWorks,
  type MyWorksQuery,
  type PublicWorkOrder,
} from '../../services/works';

/** Spec §9: the omnibus reads page 1 first, 10 a page. */
const OMNIBUS_PAGE_SIZE = 10;
const MODELS_URL = '/api/options/models';

/** Every works query sits under ['works'], so one invalidation refreshes the galleries after a change. */
export const worksKeys = {
  all: ['works'] as const,
  minePage: (query: MyWorksQuery) => ['works', 'mine', 'page', query] as const,
  mineDetail: (id: string) => ['works', 'mine', 'detail', id] as const,
  public: (order: PublicWorkOrder, categoryId: string | undefined) =>
    ['works', 'public', order, categoryId ?? ''] as const,
  publicDetail: (id: string) => ['works', 'publicDetail', id] as const,
  latest: (pageSize: number) => ['works', 'latest', pageSize] as const,
};

/** A detail query (mine or public) of one of the deleted works. */
function isDeletedWorkDetail(queryKey: readonly unknown[], deletedIds: readonly string[]): boolean {
  const [, kind, third, fourth] = queryKey;
  const id = kind === 'mine' && third === 'detail' ? fourth : kind === 'publicDetail' ? third : undefined;
  return typeof id === 'string' && deletedIds.includes(id);
}

/**
 * After a deletion the galleries load again, but the details of the deleted works are dropped rather than asked
 * for: the detail dialog that deleted one is still open at that moment, and asking again only answers 作品不存在.
 */
export async function refreshAfterDelete(queryClient: QueryClient, deletedIds: readonly string[]): Promise<void> {
  const gone = (query: Query) => isDeletedWorkDetail(query.queryKey, deletedIds);
  queryClient.removeQueries({ queryKey: worksKeys.all, predicate: gone });
  await queryClient.invalidateQueries({ queryKey: worksKeys.all, predicate: (query) => !gone(query) });
}

export function useMyWorks(query: MyWorksQuery) {
  return useQuery({
    queryKey: worksKeys.minePage(query),
    queryFn: () => fetchMyWorks(query),
    // The grid keeps the previous page on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
}

export function useMyWorkDetail(id: string | null) {
  return useQuery({
    queryKey: worksKeys.mineDetail(id ?? ''),
    queryFn: () => fetchMyWorkDetail(id ?? ''),
    enabled: Boolean(id),
  });
}

/** The omnibus, page after page until `total`. */
export function usePublicWorks(order: PublicWorkOrder, categoryId: string | undefined) {
  return useInfiniteQuery({
    queryKey: worksKeys.public(order, categoryId),
    queryFn: ({ pageParam }) =>
      fetchPublicWorks({ current: pageParam, pageSize: OMNIBUS_PAGE_SIZE, order, categoryId }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.list.length, 0);
      return loaded < last.total && last.list.length > 0 ? last.current + 1 : undefined;
    },
  });
}

/** Opening a public work counts a view, so every opening asks again (the cached answer shows meanwhile). */
export function usePublicWorkDetail(id: string | null) {
  return useQuery({
    queryKey: worksKeys.publicDetail(id ?? ''),
    queryFn: () => fetchPublicWorkDetail(id ?? ''),
    enabled: Boolean(id),
    staleTime: 0,
  });
}

export function useLatestPublicWorks(pageSize: number) {
  return useQuery({ queryKey: worksKeys.latest(pageSize), queryFn: () => fetchLatestPublicWorks(pageSize) });
}

/**
 * The name of a model id, from the option list the /draw form uses (same cache key as useFieldOptions);
 * undefined while unknown. That route needs login, so for logged-out visitors it stays unknown.
 */
export function useModelLabel(loggedIn: boolean): (modelId: string) => string | undefined {
  const query = useQuery({
    queryKey: ['formOptions', MODELS_URL],
    queryFn: () => fetchFormOptions(MODELS_URL),
    enabled: loggedIn,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (modelId) => query.data?.find((option) => String(option.value) === modelId)?.label;
}
