import type { UploadResult } from '@huafang/contracts';
import { request } from './request';

export function uploadFile(file: Blob, fileName?: string) {
  const form = new FormData();
  form.append('file', file, fileName);
  return request<UploadResult>('/api/files/upload', { method: 'POST', form });
}
