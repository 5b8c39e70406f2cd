import type { NoticePage } from '@huafang/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http, requestEnvelope } from './request';

/** 通知: what the user is told about their works (docs/community.md). */

export function fetchUserNotices(query: { current: number; pageSize: number }) {
  return http.get<NoticePage>('/api/notices', { ...query });
}

export function fetchUnreadNotices() {
  return http.get<{ unread: number }>('/api/notices/unread');
}

/** Marks these notices read, or all of them without ids. */
export async function markNoticesRead(ids?: string[]): Promise<void> {
  await requestEnvelope<null>('/api/notices/read', { method: 'POST', body: ids ? { ids } : {} });
}

export const userNoticeKeys = {
  all: ['user-notices'] as const,
  page: (current: number) => ['user-notices', 'page', current] as const,
  unread: ['user-notices', 'unread'] as const,
};

const NOTICE_PAGE_SIZE = 10;

export const userNoticeQueries = {
  page: (current: number) =>
    queryOptions({
      queryKey: userNoticeKeys.page(current),
      queryFn: () => fetchUserNotices({ current, pageSize: NOTICE_PAGE_SIZE }),
    }),
  unread: () => queryOptions({ queryKey: userNoticeKeys.unread, queryFn: fetchUnreadNotices }),
};
