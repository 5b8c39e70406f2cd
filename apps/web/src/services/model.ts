import {
  type ArtModel,
  type BackendCheckpoint,
  type ModelBody,
  type ModelGroup,
  type ModelImportBody,
  type ModelImportResult,
  REQUEST_CACHE_TTL_MS,
} from '@huafang/contracts';
import { queryOptions } from '@tanstack/react-query';
import { adminKeys } from './admin';
import { http, requestEnvelope } from './request';

/** 'enabled' is what users may pick on /draw; 'all' adds the disabled models for /model. */
export function fetchModelMenu(scope: 'all' | 'enabled') {
  return http.get<ModelGroup[]>('/api/art/model/menu', { scope });
}

const id = encodeURIComponent;

export function createModelGroup(name: string) {
  return http.post<{ id: string }>('/api/admin/model-groups', { name });
}

export function renameModelGroup(groupId: string, name: string) {
  return http.put<{ id: string }>(`/api/admin/model-groups/${id(groupId)}`, { name });
}

/** Only an empty group can go; the server answers why otherwise. */
export function deleteModelGroup(groupId: string) {
  return http.delete<null>(`/api/admin/model-groups/${id(groupId)}`);
}

export function createModel(body: ModelBody) {
  return http.post<ArtModel>('/api/admin/models', body);
}

export function updateModel(modelId: string, body: ModelBody) {
  return http.put<ArtModel>(`/api/admin/models/${id(modelId)}`, body);
}

export function deleteModel(modelId: string) {
  return http.delete<null>(`/api/admin/models/${id(modelId)}`);
}

/** What a registered backend reports now (A1111 sd-models, ComfyUI object_info). */
export function fetchBackendCheckpoints(backendId: string) {
  return http.get<BackendCheckpoint[]>(`/api/admin/backends/${id(backendId)}/checkpoints`);
}

/** Resolves with the server's message too (已导入 N 个模型…). */
export function importModels(body: ModelImportBody) {
  return requestEnvelope<ModelImportResult>('/api/admin/models/import', { method: 'POST', body });
}

export const modelKeys = {
  /** Every model menu (both scopes), for invalidation after an edit. */
  menus: ['modelMenu'] as const,
  menu: (scope: 'all' | 'enabled') => ['modelMenu', scope] as const,
  checkpoints: (backendId: string) => [...adminKeys.backends, backendId, 'checkpoints'] as const,
};

export const modelQueries = {
  /** The users' menu is kept a minute (every /draw form reads it); 模型管理's full one is the default freshness. */
  menu: (scope: 'all' | 'enabled') =>
    queryOptions({
      queryKey: modelKeys.menu(scope),
      queryFn: () => fetchModelMenu(scope),
      ...(scope === 'enabled' ? { staleTime: REQUEST_CACHE_TTL_MS } : {}),
    }),
  /** Read fresh each time the import dialog asks: the backend's folder may have changed. */
  checkpoints: (backendId: string) =>
    queryOptions({
      queryKey: modelKeys.checkpoints(backendId),
      queryFn: () => fetchBackendCheckpoints(backendId),
      staleTime: 0,
      retry: false,
    }),
};
