import { z } from 'zod';
import { ENGINE_KIND_IDS, REMOTE_ENGINE_KINDS } from './engine-kinds.js';
import { pageQuerySchema, pageSchema } from './envelope.js';
import { displayNameOf, isVisibleText } from './fields.js';
import { currentUserSchema } from './user.js';

/** An admin's note on an invite code or a credit grant. */
const remarkSchema = z
  .string()
  .trim()
  .max(100, '备注不能超过 100 个字')
  .refine(isVisibleText, '备注不能包含控制字符或不可见字符')
  .optional();

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
  remark: remarkSchema,
});
export type CreateInviteCodeBody = z.infer<typeof createInviteCodeBodySchema>;

/** 用户管理: a row of GET /api/admin/users. */
export const adminUserItemSchema = currentUserSchema
  .pick({ userId: true, account: true, nickname: true, mobile: true })
  .extend({
    admin: z.boolean(),
    credits: z.number().int(),
    /** 已停用: cannot log in, and every token of the user stopped working when it was set. */
    disabled: z.boolean(),
    createdAt: z.string(),
  });
export type AdminUserItem = z.infer<typeof adminUserItemSchema>;
export const adminUserPageSchema = pageSchema(adminUserItemSchema);
export const adminUserQuerySchema = pageQuerySchema.extend({
  keyword: z.string().trim().max(32, '关键词不能超过 32 个字符').optional(),
});

/** POST /api/admin/users/credits: add (or with a negative amount, take back) credits. */
export const creditGrantBodySchema = z.object({
  userId: z.string({ error: '请选择用户' }).trim().min(1, '请选择用户').max(64, '用户编号格式不正确'),
  amount: z
    .number({ error: '请填写算力点数' })
    .int('算力点数须为整数')
    .min(-1_000_000, '算力点数不能小于 -1000000')
    .max(1_000_000, '算力点数不能超过 1000000')
    .refine((value) => value !== 0, '算力点数不能为 0'),
  remark: remarkSchema,
});
export const creditGrantResultSchema = z.object({ userId: z.string(), credits: z.number().int() });

/** POST /api/admin/users/disabled: 停用 (signs the user out everywhere) or 启用 an account. */
export const userDisabledBodySchema = z.object({
  userId: z.string({ error: '请选择用户' }).trim().min(1, '请选择用户').max(64, '用户编号格式不正确'),
  disabled: z.boolean({ error: '请选择停用或启用' }),
});
export type UserDisabledBody = z.infer<typeof userDisabledBodySchema>;
export const userDisabledResultSchema = z.object({ userId: z.string(), disabled: z.boolean() });

export const backendKindSchema = z.enum(ENGINE_KIND_IDS, { error: '后端类型不正确' });
export type BackendKind = z.infer<typeof backendKindSchema>;

/** 推理后端: a registered inference server. Credentials are never sent back, only whether they are set. */
export const backendItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: backendKindSchema,
  baseUrl: z.string(),
  username: z.string().nullable(),
  hasSecret: z.boolean(),
  /** Checkpoints it serves; empty means every model of its kind. */
  models: z.array(z.string()),
  enabled: z.boolean(),
  healthy: z.boolean(),
  healthMessage: z.string(),
  checkedAt: z.string().nullable(),
  /** Running one of our jobs now. */
  busy: z.boolean(),
  /** The built-in engine: always there, not editable. */
  builtin: z.boolean(),
});
export type BackendItem = z.infer<typeof backendItemSchema>;

export const backendBodySchema = z.object({
  name: displayNameOf('后端名称', 30),
  kind: z.enum(REMOTE_ENGINE_KINDS, { error: '请选择后端类型' }),
  baseUrl: z
    .string({ error: '请填写后端地址' })
    .trim()
    .regex(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, '后端地址须为 http:// 或 https:// 开头的网址')
    .max(300, '后端地址过长'),
  /** The user name of kinds whose form asks for one (ENGINE_KINDS). */
  username: z.string().trim().max(64, '用户名过长').nullable().optional(),
  /** The kind's password or token; absent on update keeps the stored one. */
  secret: z.string().max(256, '密码或令牌过长').nullable().optional(),
  models: z.array(z.string().trim().min(1).max(200, '模型名称过长')).max(100, '模型最多 100 个').default([]),
  enabled: z.boolean().default(true),
});
export type BackendBody = z.input<typeof backendBodySchema>;

/** 数据看板: GET /api/admin/dashboard?days=N. */
export const dashboardQuerySchema = z.object({
  days: z.coerce.number().int('天数须为整数').min(1, '天数至少为 1').max(90, '天数不能超过 90').default(14),
});
export const dashboardDaySchema = z.object({
  /** YYYY-MM-DD (UTC). */
  date: z.string(),
  generations: z.number().int(),
  images: z.number().int(),
  activeUsers: z.number().int(),
  /** Orders paid that day (UTC) and what they brought in, in fen (before refunds). */
  paidOrders: z.number().int(),
  revenueFen: z.number().int(),
});
export const dashboardSchema = z.object({
  days: z.array(dashboardDaySchema),
  totals: z.object({ users: z.number().int(), works: z.number().int(), publicWorks: z.number().int() }),
  queue: z.object({ waiting: z.number().int(), running: z.number().int() }),
  backends: z.array(z.object({ name: z.string(), healthy: z.boolean(), busy: z.boolean() })),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
