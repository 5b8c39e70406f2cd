import type { Page, PromptTreeNode, PromptWord, PromptWordBody } from '@huafang/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
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

/** helpUrlFlag "01" reads the featured words (常用); "02" the whole library (全部). */
export const HELP_URL_FLAG = { featured: '01', all: '02' } as const;

/** Every prompt query sits under ['prompt'], so saving a word refreshes the trees and lists everywhere. */
export const promptKeys = {
  all: ['prompt'] as const,
  tree: (variant: PromptVariant, helpUrlFlag: string) => ['prompt', 'tree', variant, helpUrlFlag] as const,
  list: (variant: PromptVariant, query: PromptListQuery) => ['prompt', 'list', variant, query] as const,
  /** 提示词管理's table: one filter's pages. */
  admin: (variant: PromptVariant, categoryId: string | null | undefined, keyword: string) =>
    ['prompt', 'admin', variant, categoryId, keyword] as const,
};

export const promptQueries = {
  tree: (variant: PromptVariant, helpUrlFlag: string) =>
    queryOptions({
      queryKey: promptKeys.tree(variant, helpUrlFlag),
      queryFn: () => fetchPromptTree(variant, helpUrlFlag),
    }),
  list: (variant: PromptVariant, query: PromptListQuery) =>
    queryOptions({
      queryKey: promptKeys.list(variant, query),
      queryFn: () => fetchPromptList(variant, query),
      placeholderData: keepPreviousData,
    }),
};
