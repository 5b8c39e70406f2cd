import type { Page, PromptHistoryItem } from '@huafang/contracts';
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
