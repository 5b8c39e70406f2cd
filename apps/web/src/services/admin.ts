import type {
  AdminUserItem,
  AgreementType,
  BackendBody,
  BackendItem,
  CreateInviteCodeBody,
  creditGrantBodySchema,
  creditGrantResultSchema,
  Dashboard,
  HelpRequest,
  InviteCodeItem,
  Page,
  PageQuery,
  UserDisabledBody,
  userDisabledResultSchema,
} from '@huafang/contracts';
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from './request';

type CreditGrantBody = z.input<typeof creditGrantBodySchema>;
type CreditGrantResult = z.infer<typeof creditGrantResultSchema>;
type UserDisabledResult = z.infer<typeof userDisabledResultSchema>;

export function fetchInviteCodes(query: PageQuery) {
  return http.get<Page<InviteCodeItem>>('/api/admin/invite/codes', query);
}

export function createInviteCode(body: CreateInviteCodeBody) {
  return http.post<InviteCodeItem>('/api/admin/invite/codes', body);
}

export function fetchHelpRequests(query: PageQuery) {
  return http.get<Page<HelpRequest>>('/api/admin/help', query);
}

export function saveAgreement(type: AgreementType, body: { title: string; content: string }) {
  return http.put<null>(`/api/admin/agreement/${type}`, body);
}

export function fetchAdminUsers(query: PageQuery & { keyword?: string }) {
  return http.get<Page<AdminUserItem>>('/api/admin/users', query);
}

/** A positive amount adds credits, a negative one takes them back; resolves the new balance. */
export function grantCredits(body: CreditGrantBody) {
  return http.post<CreditGrantResult>('/api/admin/users/credits', body);
}

/** 停用 signs the user out everywhere and refuses their logins; 启用 lets them log in again. */
export function setUserDisabled(body: UserDisabledBody) {
  return http.post<UserDisabledResult>('/api/admin/users/disabled', body);
}

export function fetchBackends() {
  return http.get<BackendItem[]>('/api/admin/backends');
}

export function createBackend(body: BackendBody) {
  return http.post<BackendItem>('/api/admin/backends', body);
}

/** A body without `secret` keeps the stored password or token. */
export function updateBackend(id: string, body: BackendBody) {
  return http.put<BackendItem>(`/api/admin/backends/${encodeURIComponent(id)}`, body);
}

/** Runs a health check now and resolves the backend as it stands after it. */
export function checkBackend(id: string) {
  return http.post<BackendItem>(`/api/admin/backends/${encodeURIComponent(id)}/check`);
}

export function deleteBackend(id: string) {
  return http.delete<null>(`/api/admin/backends/${encodeURIComponent(id)}`);
}

export function fetchDashboard(days: number) {
  return http.get<Dashboard>('/api/admin/dashboard', { days });
}

/** The admin pages' lists; each paged one takes its page last (see usePagedQuery). */
export const adminKeys = {
  backends: ['admin', 'backends'] as const,
  /** Every page of every search, for invalidation after a grant or a 停用. */
  users: ['admin', 'users'] as const,
  userSearch: (keyword: string) => [...adminKeys.users, keyword] as const,
  inviteCodes: ['admin', 'inviteCodes'] as const,
  helpRequests: ['admin', 'help'] as const,
  dashboard: (days: number) => ['admin', 'dashboard', days] as const,
};

export const adminQueries = {
  backends: () => queryOptions({ queryKey: adminKeys.backends, queryFn: fetchBackends }),
  dashboard: (days: number) =>
    queryOptions({ queryKey: adminKeys.dashboard(days), queryFn: () => fetchDashboard(days) }),
};
