import { z } from 'zod';
import { pageSchema } from './envelope.js';

export const inviteCodeItemSchema = z.object({
  id: z.string(),
  code: z.string(),
  codeType: z.string(),
  maxUses: z.number().int(),
  usedCount: z.number().int(),
  remark: z.string().nullable(),
  createdAt: z.string(),
});
export type InviteCodeItem = z.infer<typeof inviteCodeItemSchema>;
export const inviteCodePageSchema = pageSchema(inviteCodeItemSchema);

export const createInviteCodeBodySchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{4,32}$/, '邀请码须为 4–32 位字母或数字')
    .optional(),
  codeType: z
    .string({ error: '请选择邀请码类型' })
    .trim()
    .regex(/^\d{2}$/, '邀请码类型为两位数字，如 01'),
  maxUses: z
    .number({ error: '请填写可用次数' })
    .int('可用次数须为整数')
    .min(1, '可用次数至少为 1')
    .max(100_000, '可用次数不能超过 100000'),
  remark: z.string().trim().max(100, '备注不能超过 100 个字').optional(),
});
export type CreateInviteCodeBody = z.infer<typeof createInviteCodeBodySchema>;
