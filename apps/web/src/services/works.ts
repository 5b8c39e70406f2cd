import type {
  Page,
  PublicWorkDetail,
  PublicWorkItem,
  reviewWorkItemSchema,
  WorkDetail,
  WorkItem,
  WorkReactions,
} from '@huafang/contracts';
import {
  infiniteQueryOptions,
  keepPreviousData,
  type Query,
  type QueryClient,
  queryOptions,
} from '@tanstack/react-query';
import type { z } from 'zod';
import { queryForId } from './query-for-id';
import { http, requestBlob, requestEnvelope } from './request';

export type ReviewWorkItem = z.infer<typeof reviewWorkItemSchema>;
export type PublicWorkOrder = 'latest' | 'hot';
export type ReviewStatus = 'all' | 'visible' | 'hidden';

/** GET /api/works/profile (workProfileQuerySchema) as the page sends it; days are YYYY-MM-DD. */
export interface MyWorksQuery {
  current: number;
  pageSize: number;
  templateId?: string;
  dateFrom?: string;
  dateTo?: string;
  /** Sent with a date range: the browser's offset, so the days are the user's own. */
  tzOffset?: number;
  keyword?: string;
}

export interface PublicWorkQuery {
  current: number;
  pageSize: number;
  order?: PublicWorkOrder;
  categoryId?: string;
}

/* ---------- 我的作品 ---------- */

export function fetchMyWorks(query: MyWorksQuery) {
  return http.get<Page<WorkItem>>('/api/works/profile', { ...query });
}

export function fetchMyWorkDetail(id: string) {
  return http.get<WorkDetail>('/api/works/profile/detail', { id });
}

/** Resolves the server's message (删除成功), which the page shows as it is. */
export async function deleteWorks(ids: string[]): Promise<string> {
  return (await requestEnvelope<null>('/api/works', { method: 'DELETE', body: { ids } })).msg;
}

export function publishWork(body: { id: string; public: boolean; hidePrompt: boolean }) {
  return requestEnvelope<WorkItem>('/api/works/publish', { method: 'POST', body });
}

/** The originals as one zip; the route needs the bearer header, so it is read as a blob rather than linked. */
export function downloadWorksZip(ids: string[]) {
  return requestBlob('/api/files/downloadZip', { params: { ids: ids.join(',') } });
}

/* ---------- 灵感广场 ---------- */

/** The omnibus list; login optional. */
export function fetchPublicWorks(query: PublicWorkQuery) {
  return http.get<Page<PublicWorkItem>>('/api/works/public', { ...query });
}

/** The same list under the path the home page calls (spec §7, auth section). */
export function fetchLatestPublicWorks(pageSize: number) {
  return http.get<Page<PublicWorkItem>>('/api/works/public/list', { current: 1, pageSize, order: 'latest' });
}

/** Counts a view on the server, so it is fetched once per opening, never cached. */
export function fetchPublicWorkDetail(id: string) {
  return http.get<PublicWorkDetail>('/api/works/public/detail', { id });
}

/** `/work/:id`, a shared link: the page itself says when the work is gone, so no notice repeats it. */
export function fetchSharedWork(id: string) {
  return http.get<PublicWorkDetail>('/api/works/public/detail', { id }, { quiet: true });
}

/** 点赞 or its undo; resolves the work's counts now and the server's message (已点赞 / 已取消点赞). */
export function likeWork(id: string, like: boolean) {
  return requestEnvelope<WorkReactions>('/api/works/like', { method: 'POST', body: { id, like } });
}

/** 收藏 or its undo (已收藏 / 已取消收藏). */
export function favoriteWork(id: string, favorite: boolean) {
  return requestEnvelope<WorkReactions>('/api/works/favorite', { method: 'POST', body: { id, favorite } });
}

/** 我的收藏: favourites still on 灵感广场, the latest first. */
export function fetchFavoriteWorks(query: { current: number; pageSize: number }) {
  return http.get<Page<PublicWorkItem>>('/api/works/favorites', { ...query });
}

/* ---------- 作品审核 ---------- */

export function fetchReviewWorks(query: { current: number; pageSize: number; status: ReviewStatus }) {
  return http.get<Page<ReviewWorkItem>>('/api/admin/works/review', { ...query });
}

export async function setWorkHidden(id: string, hidden: boolean): Promise<string> {
  return (await requestEnvelope<null>('/api/admin/works/hide', { method: 'POST', body: { id, hidden } })).msg;
}

/* ---------- Keys and queries ---------- */

/** Spec §9: the omnibus reads page 1 first, 10 a page. */
export const OMNIBUS_PAGE_SIZE = 10;

/** Every works query sits under ['works'], so one invalidation refreshes the galleries after a change. */
export const worksKeys = {
  all: ['works'] as const,
  minePage: (query: MyWorksQuery) => ['works', 'mine', 'page', query] as const,
  mineDetail: (id: string) => ['works', 'mine', 'detail', id] as const,
  public: (order: PublicWorkOrder, categoryId: string | undefined) =>
    ['works', 'public', order, categoryId ?? ''] as const,
  publicDetail: (id: string) => ['works', 'publicDetail', id] as const,
  shared: (id: string) => ['works', 'shared', id] as const,
  latest: (pageSize: number) => ['works', 'latest', pageSize] as const,
  favorites: ['works', 'favorites'] as const,
};

/** 我的收藏 reads 20 a page. */
const FAVORITES_PAGE_SIZE = 20;

/** The next page of an infinite list of works, until `total`. */
function nextWorksPage(last: Page<unknown>, pages: Page<unknown>[]): number | undefined {
  const loaded = pages.reduce((sum, page) => sum + page.list.length, 0);
  return loaded < last.total && last.list.length > 0 ? last.current + 1 : undefined;
}

export const worksQueries = {
  /** The grid keeps the previous page on screen while the next one loads. */
  minePage: (query: MyWorksQuery) =>
    queryOptions({
      queryKey: worksKeys.minePage(query),
      queryFn: () => fetchMyWorks(query),
      placeholderData: keepPreviousData,
    }),
  mineDetail: (id: string | null) => queryForId(id, worksKeys.mineDetail, fetchMyWorkDetail),
  /** The omnibus, page after page until `total`. */
  public: (order: PublicWorkOrder, categoryId: string | undefined) =>
    infiniteQueryOptions({
      queryKey: worksKeys.public(order, categoryId),
      queryFn: ({ pageParam }) =>
        fetchPublicWorks({ current: pageParam, pageSize: OMNIBUS_PAGE_SIZE, order, categoryId }),
      initialPageParam: 1,
      getNextPageParam: nextWorksPage,
    }),
  /** 我的收藏, page after page. */
  favorites: () =>
    infiniteQueryOptions({
      queryKey: worksKeys.favorites,
      queryFn: ({ pageParam }) => fetchFavoriteWorks({ current: pageParam, pageSize: FAVORITES_PAGE_SIZE }),
      initialPageParam: 1,
      getNextPageParam: nextWorksPage,
    }),
  /** Opening a public work counts a view, so every opening asks again (the cached answer shows meanwhile). */
  publicDetail: (id: string | null) =>
    queryOptions({ ...queryForId(id, worksKeys.publicDetail, fetchPublicWorkDetail), staleTime: 0 }),
  /** The page a shared link opens; its 点赞/收藏 counts follow applyReactions like every works query. */
  shared: (id: string) => queryOptions({ queryKey: worksKeys.shared(id), queryFn: () => fetchSharedWork(id) }),
  latest: (pageSize: number) =>
    queryOptions({ queryKey: worksKeys.latest(pageSize), queryFn: () => fetchLatestPublicWorks(pageSize) }),
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

type WorkLike = { id: string };

/** `data` of any cached works query with the work's counts replaced: a detail, a page, or pages of a list. */
function withReactions(data: unknown, reactions: WorkReactions): unknown {
  if (!data || typeof data !== 'object') return data;
  const patchItem = (item: unknown) =>
    (item as WorkLike).id === reactions.id ? { ...(item as object), ...reactions } : item;
  if ('pages' in data && Array.isArray(data.pages)) {
    return { ...data, pages: data.pages.map((page: unknown) => withReactions(page, reactions)) };
  }
  if ('list' in data && Array.isArray(data.list)) return { ...data, list: data.list.map(patchItem) };
  return patchItem(data);
}

/**
 * After 点赞 or 收藏 every gallery showing the work (cards, the open detail, the home page) shows the new counts at
 * once; 我的收藏 loads again, since a favourite adds or removes a card there.
 */
export async function applyReactions(queryClient: QueryClient, reactions: WorkReactions): Promise<void> {
  queryClient.setQueriesData({ queryKey: worksKeys.all }, (data: unknown) => withReactions(data, reactions));
  await queryClient.invalidateQueries({ queryKey: worksKeys.favorites });
}
