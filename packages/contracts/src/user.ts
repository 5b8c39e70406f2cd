import { z } from 'zod';
import { adminFlagSchema } from './auth.js';
import {
  accountSchema,
  idOf,
  inviteCodeSchema,
  mobileSchema,
  nicknameSchema,
  passwordOf,
  passwordSchema,
  smsCodeSchema,
} from './fields.js';

export const userStatusSchema = z.object({
  invite: z.boolean(),
  codeType: z.string().nullable(),
});
export type UserStatus = z.infer<typeof userStatusSchema>;

export const currentUserSchema = z.object({
  userId: z.string(),
  account: z.string().nullable(),
  nickname: z.string().nullable(),
  avatar: z.string().nullable(),
  /** Masked, e.g. 138****0000. */
  mobile: z.string().nullable(),
  hasPassword: z.boolean(),
  invite: z.boolean(),
  codeType: z.string().nullable(),
  /** The user closed the optional invite step once: it is not offered again after login (any device). */
  inviteSkipped: z.boolean(),
  /** The account name may still be changed (once per user). */
  accountRenamable: z.boolean(),
  credits: z.number().int(),
  admin: adminFlagSchema,
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const perfectInfoBodySchema = z.object({
  nickname: nicknameSchema,
  /** fileId of an uploaded image. */
  avatar: idOf('头像').optional(),
  inviteCode: inviteCodeSchema.optional(),
});
export type PerfectInfoBody = z.infer<typeof perfectInfoBodySchema>;

export const inviteCodeBodySchema = z.object({ inviteCode: inviteCodeSchema });
export const setPasswordBodySchema = z.object({ password: passwordSchema });
export const updatePwdBodySchema = z.object({
  oldPassword: z.string({ error: '请输入原密码' }).min(1, '请输入原密码').max(128, '原密码错误'),
  newPassword: passwordOf('新密码'),
});
export const updateAccountBodySchema = z.object({ account: accountSchema });
export type UpdateAccountBody = z.infer<typeof updateAccountBodySchema>;
export const updateNicknameBodySchema = z.object({ nickname: nicknameSchema });
export const updateAvatarBodySchema = z.object({ avatar: idOf('头像') });
export const bindMobileBodySchema = z.object({ mobile: mobileSchema, code: smsCodeSchema });
export const unbindMobileBodySchema = z.object({ code: smsCodeSchema });

/** Masks the middle four digits of a mainland mobile: 13800000000 → 138****0000. */
export function maskMobile(mobile: string): string {
  return mobile.length === 11 ? `${mobile.slice(0, 3)}****${mobile.slice(7)}` : mobile;
}
