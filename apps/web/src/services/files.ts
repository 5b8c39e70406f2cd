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

/** The fileId inside a stored image URL such as a cover; undefined for anything else. */
export function fileIdOfUrl(url: string | null | undefined): string | undefined {
  const match = /^\/api\/files\/([^/?#]+)$/.exec(url ?? '');
  return match?.[1] ? decodeURIComponent(match[1]) : undefined;
}
