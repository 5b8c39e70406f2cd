import type {
  Page,
  PageQuery,
  SensitiveCategoryCount,
  SensitiveWord,
  SensitiveWordAddBody,
  SensitiveWordAddResult,
  SensitiveWordImportBody,
} from '@huafang/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http, requestBlob, requestEnvelope } from './request';

/** The list's filters: one category, and a keyword the server compares the way the word filter does. */
export interface SensitiveWordFilter {
  category?: string;
  keyword?: string;
}

export function fetchSensitiveWords(filter: SensitiveWordFilter, page: PageQuery) {
  return http.get<Page<SensitiveWord>>('/api/admin/sensitive-words', { ...filter, ...page });
}

export function fetchSensitiveCategories() {
  return http.get<SensitiveCategoryCount[]>('/api/admin/sensitive-words/categories');
}

/** Resolves the counts and the server's message (添加成功). */
export function addSensitiveWords(body: SensitiveWordAddBody) {
  return requestEnvelope<SensitiveWordAddResult>('/api/admin/sensitive-words', { method: 'POST', body });
}

/** Resolves the server's message (删除成功). */
export async function deleteSensitiveWords(ids: string[]) {
  return (await requestEnvelope<null>('/api/admin/sensitive-words', { method: 'DELETE', body: { ids } })).msg;
}

/** Resolves the counts and the server's message (导入成功); a bad line refuses the whole text (第 N 行：…). */
export function importSensitiveWords(body: SensitiveWordImportBody) {
  return requestEnvelope<SensitiveWordAddResult>('/api/admin/sensitive-words/import', { method: 'POST', body });
}

/** A text file of `分类:词` lines (one category, or all), which import reads back. */
export function downloadSensitiveWords(category: string | undefined) {
  return requestBlob('/api/admin/sensitive-words/export', { params: { category } });
}

export const sensitiveWordKeys = {
  all: ['admin', 'sensitiveWords'] as const,
  list: (filter: SensitiveWordFilter) => [...sensitiveWordKeys.all, 'list', filter] as const,
  categories: ['admin', 'sensitiveWords', 'categories'] as const,
};

export const sensitiveWordQueries = {
  categories: () => queryOptions({ queryKey: sensitiveWordKeys.categories, queryFn: fetchSensitiveCategories }),
};
