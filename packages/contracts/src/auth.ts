import { z } from 'zod';
import { accountSchema, idOf, mobileSchema, passwordSchema, smsCodeSchema } from './fields.js';

/** What a code is sent for; each scene's codes only verify that scene. */
export const smsSceneSchema = z.enum(['login', 'bind', 'unbind', 'reset'], { error: '验证码用途不正确' });
export type SmsScene = z.infer<typeof smsSceneSchema>;

export const sendCodeBodySchema = z.object({
  mobile: mobileSchema,
  scene: smsSceneSchema.default('login'),
});
export type SendCodeBody = z.input<typeof sendCodeBodySchema>;

export const sendCodeResultSchema = z.object({
  /** Seconds before another code may be sent to this mobile. */
  resendAfter: z.number().int(),
});

export const mobileLoginBodySchema = z.object({ mobile: mobileSchema, code: smsCodeSchema });
export type MobileLoginBody = z.infer<typeof mobileLoginBodySchema>;

export const accountLoginBodySchema = z.object({
  account: z.string({ error: '请输入账号' }).trim().min(1, '请输入账号').max(64, '账号或密码错误'),
  password: z.string({ error: '请输入密码' }).min(1, '请输入密码').max(128, '账号或密码错误'),
});
export type AccountLoginBody = z.infer<typeof accountLoginBodySchema>;

export const adminFlagSchema = z.enum(['true', 'false']);

export const loginResultSchema = z.object({
  token: z.string(),
  admin: adminFlagSchema,
  permissions: z.array(z.string()),
});
export type LoginResult = z.infer<typeof loginResultSchema>;

/**
 * `POST /api/auth/mobile/loginOrSignUp`: one step for a mobile, registered or not. `created` says the account was
 * made just now (it has no password yet: one can be set later in 个人信息).
 */
export const mobileLoginOrSignUpResultSchema = loginResultSchema.extend({ created: z.boolean() });
export type MobileLoginOrSignUpResult = z.infer<typeof mobileLoginOrSignUpResultSchema>;

/** Body `data` of code 405: the pending registration to complete with signUp. */
export const unregisteredSchema = z.object({ userId: z.string() });
export type Unregistered = z.infer<typeof unregisteredSchema>;

export const signUpBodySchema = z.object({
  userId: idOf('注册编号'),
  password: passwordSchema,
  account: accountSchema.optional(),
});
export type SignUpBody = z.infer<typeof signUpBodySchema>;

export const signUpResultSchema = loginResultSchema.extend({ userId: z.string() });
export type SignUpResult = z.infer<typeof signUpResultSchema>;

export const reVerifyBodySchema = z.object({ mobile: mobileSchema, code: smsCodeSchema });
export const reVerifyResultSchema = z.object({ token: z.string() });
export const rePasswordBodySchema = z.object({
  token: z.string({ error: '缺少凭证' }).min(1, '缺少凭证').max(128, '凭证无效'),
  password: passwordSchema,
});
export type RePasswordBody = z.infer<typeof rePasswordBodySchema>;
