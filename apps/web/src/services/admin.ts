import type {
  AgreementType,
  CreateInviteCodeBody,
  HelpRequest,
  InviteCodeItem,
  Page,
  PageQuery,
} from '@huafang/contracts';
import { http } from './request';

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
