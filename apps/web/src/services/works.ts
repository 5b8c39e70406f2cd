import type {
  Page,
  PublicWorkDetail,
  PublicWorkItem,
  reviewWorkItemSchema,
  WorkDetail,
  WorkItem,
} from '@huafang/contracts';
import type { z } from 'zod';
import { http, requestBlob, requestEnvelope } from './request';

export type ReviewWorkItem = z.infer<typeof reviewWorkItemSchema>;
export type PublicWorkOrder = 'latest' | 'hot';
export type ReviewStatus = 'all' | 'visible' | 'hidden';

/** GET /api/works/profile (workProfileQuerySchema) as the page sends it; days are YYYY-MM-DD. */
export interface MyWorksQuery {
  current: number;
  pageSize: number;
  templateId?: string;
  dateFrom?: string;
  dateTo?: string;
  /** Sent with a date range: the browser's offset, so the days are the user's own. */
  tzOffset?: number;
  keyword?: string;
}

export interface PublicWorkQuery {
  current: number;
  pageSize: number;
  order?: PublicWorkOrder;
  categoryId?: string;
}

/* ---------- 我的作品 ---------- */

export function fetchMyWorks(query: MyWorksQuery) {
  return http.get<Page<WorkItem>>('/api/works/profile', { ...query });
}

export function fetchMyWorkDetail(id: string) {
  return http.get<WorkDetail>('/api/works/profile/detail', { id });
}

/** Resolves the server's message (删除成功), which the page shows as it is. */
export async function deleteWorks(ids: string[]): Promise<string> {
  return (await requestEnvelope<null>('/api/works', { method: 'DELETE', body: { ids } })).msg;
}

export function publishWork(body: { id: string; public: boolean; hidePrompt: boolean }) {
  return requestEnvelope<WorkItem>('/api/works/publish', { method: 'POST', body });
}

/** The originals as one zip; the route needs the bearer header, so it is read as a blob rather than linked. */
export function downloadWorksZip(ids: string[]) {
  return requestBlob('/api/files/downloadZip', { params: { ids: ids.join(',') } });
}

/* ---------- 灵感广场 ---------- */

/** The omnibus list; login optional. */
export function fetchPublicWorks(query: PublicWorkQuery) {
  return http.get<Page<PublicWorkItem>>('/api/works/public', { ...query });
}

/** The same list under the path the home page calls (spec §7, auth section). */
export function fetchLatestPublicWorks(pageSize: number) {
  return http.get<Page<PublicWorkItem>>('/api/works/public/list', { current: 1, pageSize, order: 'latest' });
}

/** Counts a view on the server, so it is fetched once per opening, never cached. */
export function fetchPublicWorkDetail(id: string) {
  return http.get<PublicWorkDetail>('/api/works/public/detail', { id });
}

/* ---------- 作品审核 ---------- */

export function fetchReviewWorks(query: { current: number; pageSize: number; status: ReviewStatus }) {
  return http.get<Page<ReviewWorkItem>>('/api/admin/works/review', { ...query });
}

export async function setWorkHidden(id: string, hidden: boolean): Promise<string> {
  return (await requestEnvelope<null>('/api/admin/works/hide', { method: 'POST', body: { id, hidden } })).msg;
}
