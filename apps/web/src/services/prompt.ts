import type { Page, PromptTreeNode, PromptWord, PromptWordBody } from '@huafang/contracts';
import { http } from './request';

/** The positive library lives at /api/prompt/…, the negative one at /api/prompt/negative/…. */
export type PromptVariant = 'positive' | 'negative';

export interface PromptListQuery {
  helpUrlFlag: string;
  keyword?: string;
  categoryId?: string;
  current: number;
  pageSize: number;
}

function base(variant: PromptVariant): string {
  return variant === 'negative' ? '/api/prompt/negative' : '/api/prompt';
}

export function fetchPromptTree(variant: PromptVariant, helpUrlFlag: string) {
  return http.get<PromptTreeNode[]>(`${base(variant)}/tree`, { helpUrlFlag });
}

export function fetchPromptList(variant: PromptVariant, query: PromptListQuery) {
  return http.get<Page<PromptWord>>(`${base(variant)}/list`, { ...query });
}

export function createPromptWord(body: PromptWordBody & { categoryId: string }) {
  return http.post<PromptWord>('/api/admin/prompt/words', body);
}

export function updatePromptWord(id: string, body: PromptWordBody) {
  return http.put<PromptWord>(`/api/admin/prompt/words/${encodeURIComponent(id)}`, body);
}

export function deletePromptWord(id: string) {
  return http.delete<null>(`/api/admin/prompt/words/${encodeURIComponent(id)}`);
}
