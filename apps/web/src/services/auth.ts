import type {
  AccountLoginBody,
  LoginResult,
  MobileLoginBody,
  MobileLoginOrSignUpResult,
  RePasswordBody,
  SendCodeBody,
  SignUpBody,
  SignUpResult,
} from '@huafang/contracts';
import { http } from './request';

export function sendCode(body: SendCodeBody) {
  return http.post<{ resendAfter: number }>('/api/auth/sendCode', body);
}

/** Rejects with code 405 and `data.userId` when the account is not registered yet. */
export function accountLogin(body: AccountLoginBody) {
  return http.post<LoginResult>('/api/auth/account', body);
}

/** Rejects with code 405 and `data.userId` when the mobile has no account yet. */
export function mobileLogin(body: MobileLoginBody) {
  return http.post<LoginResult>('/api/auth/mobile', body);
}

/** One step by SMS: a new mobile gets an account at once (`created`), a registered one logs in. */
export function mobileLoginOrSignUp(body: MobileLoginBody) {
  return http.post<MobileLoginOrSignUpResult>('/api/auth/mobile/loginOrSignUp', body);
}

export function signUp(body: SignUpBody) {
  return http.post<SignUpResult>('/api/auth/signUp', body);
}

/** Step one of 忘记密码: proves the mobile and returns a short-lived reset token. */
export function reVerify(body: MobileLoginBody) {
  return http.post<{ token: string }>('/api/auth/reVerify', body);
}

export function rePassword(body: RePasswordBody) {
  return http.post<null>('/api/auth/rePassword', body);
}

export function outLogin() {
  return http.post<null>('/api/auth/outLogin');
}
