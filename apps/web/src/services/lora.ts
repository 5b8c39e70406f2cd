import {
  type LoraAdmin,
  type LoraBody,
  type LoraStyle,
  type ModelSyncResult,
  REQUEST_CACHE_TTL_MS,
} from '@huafang/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from './request';

const id = encodeURIComponent;

/** The enabled LoRA styles, each marked locked (with how to unlock it) for the signed-in user. */
export function fetchLoraStyles() {
  return http.get<LoraStyle[]>('/api/art/loras');
}

/** 模型管理's LoRA list: disabled ones too, with their backends and who may use them. */
export function fetchAdminLoras() {
  return http.get<LoraAdmin[]>('/api/admin/loras');
}

export function createLora(body: LoraBody) {
  return http.post<LoraAdmin>('/api/admin/loras', body);
}

export function updateLora(loraId: string, body: LoraBody) {
  return http.put<LoraAdmin>(`/api/admin/loras/${id(loraId)}`, body);
}

export function deleteLora(loraId: string) {
  return http.delete<null>(`/api/admin/loras/${id(loraId)}`);
}

/** Reads every enabled backend's checkpoints, LoRAs and VAEs; LoRAs seen for the first time arrive disabled. */
export function syncModels() {
  return http.post<ModelSyncResult>('/api/admin/models/sync');
}

export const loraKeys = {
  /** Both lists, for invalidation after an admin's edit or a sync. */
  all: ['loras'] as const,
  styles: ['loras', 'styles'] as const,
  admin: ['loras', 'admin'] as const,
};

export const loraQueries = {
  /** Read by every /draw form and work detail: kept a minute, like the model menu. */
  styles: () => queryOptions({ queryKey: loraKeys.styles, queryFn: fetchLoraStyles, staleTime: REQUEST_CACHE_TTL_MS }),
  admin: () => queryOptions({ queryKey: loraKeys.admin, queryFn: fetchAdminLoras }),
};
