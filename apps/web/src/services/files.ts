import type { UploadResult } from '@huafang/contracts';
import { request } from './request';

export function uploadFile(file: Blob, fileName?: string) {
  const form = new FormData();
  form.append('file', file, fileName);
  return request<UploadResult>('/api/files/upload', { method: 'POST', form });
}

/** Where an uploaded image is read from, for a fileId kept without its upload answer (e.g. a saved draft). */
export function fileUrl(fileId: string): string {
  return `/api/files/${encodeURIComponent(fileId)}`;
}
