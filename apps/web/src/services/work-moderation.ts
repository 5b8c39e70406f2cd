import type {
  ModerationDecideBody,
  ModerationHistoryEntry,
  ModerationHistoryQuery,
  ModerationQueueItem,
  ModerationQueueQuery,
  Page,
  WorkReportBody,
} from '@huafang/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http, requestEnvelope } from './request';
import type { ReviewStatus } from './works';

export type ModerationQueueKind = NonNullable<ModerationQueueQuery['kind']>;

/** 举报 a public work; resolves the server's message (举报已提交，我们会尽快处理). */
export async function reportWork(body: WorkReportBody): Promise<string> {
  return (await requestEnvelope<null>('/api/works/report', { method: 'POST', body })).msg;
}

/* ---------- 作品审核 › 待审核 and 审核记录 ---------- */

export function fetchModerationQueue(query: { current: number; pageSize: number; kind: ModerationQueueKind }) {
  return http.get<Page<ModerationQueueItem>>('/api/admin/works/moderation', { ...query });
}

/** 通过 or 下架; resolves the server's message (已通过，作品已发布到灵感广场 / 已下架). */
export async function decideModeration(body: ModerationDecideBody): Promise<string> {
  return (await requestEnvelope<null>('/api/admin/works/moderation/decide', { method: 'POST', body })).msg;
}

export function fetchModerationHistory(query: ModerationHistoryQuery & { current: number; pageSize: number }) {
  return http.get<Page<ModerationHistoryEntry>>('/api/admin/works/moderation/history', { ...query });
}

/** 作品审核's queries: one invalidation of `all` refreshes the published list, the queue, its count and history. */
export const reviewKeys = {
  all: ['admin', 'works'] as const,
  published: ['admin', 'works', 'review'] as const,
  publishedByStatus: (status: ReviewStatus) => [...reviewKeys.published, status] as const,
  queue: (kind: ModerationQueueKind) => ['admin', 'works', 'moderation', 'queue', kind] as const,
  queueCount: ['admin', 'works', 'moderation', 'count'] as const,
  history: ['admin', 'works', 'moderation', 'history'] as const,
};

export const reviewQueries = {
  /** How many works wait in 待审核 (the tab's badge). */
  queueCount: () =>
    queryOptions({
      queryKey: reviewKeys.queueCount,
      queryFn: async () => (await fetchModerationQueue({ current: 1, pageSize: 1, kind: 'all' })).total,
    }),
};
