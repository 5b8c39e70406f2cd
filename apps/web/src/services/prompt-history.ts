import type { Page, PromptHistoryItem } from '@huafang/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { http } from './request';

export interface PromptHistoryQuery {
  current: number;
  pageSize: number;
  keyword?: string;
}

/** 历史: pinned entries first, then the newest. */
export function fetchPromptHistory(query: PromptHistoryQuery) {
  return http.get<Page<PromptHistoryItem>>('/api/prompt/history/page', { ...query });
}

export function setPromptHistoryPin(id: string, pinned: boolean) {
  return http.get<null>(`/api/prompt/history/${pinned ? 'pin' : 'unpin'}/${encodeURIComponent(id)}`);
}

export function deletePromptHistory(ids: string[]) {
  return http.delete<null>('/api/prompt/history', { ids });
}

export const historyKeys = {
  all: ['prompt-history'] as const,
  page: (query: PromptHistoryQuery) => ['prompt-history', query] as const,
};

export const historyQueries = {
  /** Always re-read when the drawer opens, since every generation adds an entry. */
  page: (query: PromptHistoryQuery) =>
    queryOptions({
      queryKey: historyKeys.page(query),
      queryFn: () => fetchPromptHistory(query),
      placeholderData: keepPreviousData,
      staleTime: 0,
    }),
};
