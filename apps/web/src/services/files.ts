import type { UploadResult } from '@huafang/contracts';
import { queryOptions } from '@tanstack/react-query';
import { queryForId } from './query-for-id';
import { request } from './request';

export function uploadFile(file: Blob, fileName?: string) {
  const form = new FormData();
  form.append('file', file, fileName);
  return request<UploadResult>('/api/files/upload', { method: 'POST', form });
}

/**
 * The plain address stored as a cover: it opens for everyone once saved as one. Any other upload is its owner's
 * and opens only through a signed link (the upload answer's `url`, or fileLink).
 */
export function fileUrl(fileId: string): string {
  return `/api/files/${encodeURIComponent(fileId)}`;
}

/** A fresh signed link to one of the user's uploads kept without its upload answer (a draft, 再次生成). */
export function fileLink(fileId: string) {
  return request<UploadResult>(`/api/files/link/${encodeURIComponent(fileId)}`);
}

/** The fileId inside a stored image URL such as a cover; undefined for anything else. */
export function fileIdOfUrl(url: string | null | undefined): string | undefined {
  const match = /^\/api\/files\/([^/?#]+)$/.exec(url ?? '');
  return match?.[1] ? decodeURIComponent(match[1]) : undefined;
}

/** Signed links last hours; asking again after one keeps the preview from outliving its link. */
const LINK_FRESH_MS = 3_600_000;

export const fileKeys = {
  link: (fileId: string) => ['files', 'link', fileId] as const,
};

export const fileQueries = {
  link: (fileId: string | undefined) =>
    queryOptions({
      ...queryForId(fileId, fileKeys.link, fileLink),
      staleTime: LINK_FRESH_MS,
    }),
};
