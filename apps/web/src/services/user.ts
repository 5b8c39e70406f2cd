import type { CurrentUser, PerfectInfoBody, UserStatus } from '@huafang/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from './request';

export function fetchUserStatus() {
  return http.get<UserStatus>('/api/user/status');
}

export function fetchCurrentUser() {
  return http.get<CurrentUser>('/api/user/currentUser');
}

export function perfectInfo(body: PerfectInfoBody) {
  return http.post<null>('/api/user/perfectInfo', body);
}

export function acceptInviteCode(inviteCode: string) {
  return http.post<UserStatus | null>('/api/user/invite/code', { inviteCode });
}

/** 暂不填写: remembered on the user, so the invite step is not offered again after login. */
export function skipInviteCode() {
  return http.post<null>('/api/user/invite/skip');
}

/** The account name may be changed once. */
export function updateAccount(account: string) {
  return http.post<null>('/api/user/update/account', { account });
}

export function setPassword(password: string) {
  return http.post<null>('/api/user/set/password', { password });
}

/** The server revokes every token of the user, the current one included. */
export function updatePassword(oldPassword: string, newPassword: string) {
  return http.post<null>('/api/user/update/pwd', { oldPassword, newPassword });
}

export function updateNickname(nickname: string) {
  return http.post<null>('/api/user/update/nickname', { nickname });
}

/** `avatar` is the fileId returned by the upload. */
export function updateAvatar(avatar: string) {
  return http.post<null>('/api/user/update/avatar', { avatar });
}

export function bindMobile(mobile: string, code: string) {
  return http.post<null>('/api/user/bind/mobile', { mobile, code });
}

export function unbindMobile(code: string) {
  return http.post<null>('/api/user/unbind/mobile', { code });
}

export const userKeys = {
  /** Keyed by token, so a new login never sees the previous user's answer. */
  current: (token: string | null) => ['currentUser', token] as const,
};

export const userQueries = {
  current: (token: string | null) =>
    queryOptions({ queryKey: userKeys.current(token), queryFn: fetchCurrentUser, enabled: Boolean(token) }),
};
