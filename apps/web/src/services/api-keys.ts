import type { ApiKey, ApiKeyCreateBody, ApiKeyCreated } from '@huafang/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from './request';

/** 个人 API 密钥 of the logged-in user (docs/api.md § API 密钥): only names and prefixes, never the keys. */
export function fetchApiKeys() {
  return http.get<ApiKey[]>('/api/user/apiKeys');
}

/** The answer carries the whole key, this once: the server keeps only its hash. */
export function createApiKey(body: ApiKeyCreateBody) {
  return http.post<ApiKeyCreated>('/api/user/apiKeys', body);
}

/** Revokes at once: the next request made with the key is answered 401. */
export function revokeApiKey(keyId: string) {
  return http.delete<null>(`/api/user/apiKeys/${encodeURIComponent(keyId)}`);
}

export const apiKeyKeys = {
  list: ['user', 'apiKeys'] as const,
};

export const apiKeyQueries = {
  /** Read fresh on each visit: 最近使用 moves while the page is closed. */
  list: () => queryOptions({ queryKey: apiKeyKeys.list, queryFn: fetchApiKeys, staleTime: 0 }),
};
