import { z } from 'zod';
import { pageSchema, pagingFields } from './envelope.js';
import { keysOf } from './keys.js';

/**
 * 审计日志 (admin): who did what, when and from where — logins, generations, publications, deletions, credit
 * changes and admin actions. docs/compliance.md § 日志 says what is kept, for how long and why.
 */

/** Every action the trail records, with the name the admin page shows. */
export const AUDIT_ACTION_LABELS = {
  'auth.login': '登录成功',
  'auth.login_failed': '登录失败',
  'auth.register': '注册账号',
  'generation.submit': '提交生成',
  'generation.succeeded': '生成成功',
  'generation.failed': '生成失败',
  'generation.interrupted': '生成中断',
  'work.publish': '发布作品',
  'work.unpublish': '取消发布',
  'work.delete': '删除作品',
  'work.report': '举报作品',
  'credits.change': '算力变动',
  'order.create': '创建订单',
  'order.paid': '订单支付成功',
  'order.closed': '订单关闭',
  'order.notice_refused': '拒绝支付通知',
  'order.review': '订单待核查',
  'order.refund': '发起退款',
  'order.refund_settled': '退款结果',
  'admin.request': '管理操作',
  'admin.audit_export': '导出审计日志',
  'moderation.refused': '拦截不当内容',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;
export const AUDIT_ACTIONS = keysOf(AUDIT_ACTION_LABELS);

/** An action's category is the part before the dot. */
export const AUDIT_CATEGORY_LABELS = {
  auth: '登录与注册',
  generation: '生成',
  work: '作品',
  credits: '算力',
  order: '订单',
  admin: '管理操作',
  moderation: '内容安全',
} as const;
export type AuditCategory = keyof typeof AUDIT_CATEGORY_LABELS;
export const AUDIT_CATEGORIES = keysOf(AUDIT_CATEGORY_LABELS);

/** user and admin: the role of the acting user when the entry was written; system: nobody (a background job). */
export const AUDIT_ROLE_LABELS = { user: '用户', admin: '管理员', system: '系统' } as const;
export type AuditRole = keyof typeof AUDIT_ROLE_LABELS;

/** Most rows one CSV export holds; a wider filter is refused with a message asking for a narrower one. */
export const AUDIT_EXPORT_MAX = 100_000;

export const auditEntrySchema = z.object({
  id: z.string(),
  /** ISO-8601 UTC: when it happened (the request or the job's end), not when it was written. */
  at: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  userId: z.string().nullable(),
  /** The acting user's nickname (or account) now; null for the system or an unknown user. */
  actorName: z.string().nullable(),
  /** 138****5678: the trail never holds a whole mobile number. */
  mobile: z.string().nullable(),
  role: z.enum(['user', 'admin', 'system']),
  /** The personal API key the request came with (docs/api.md); null for a login session or a background job. */
  apiKeyId: z.string().nullable(),
  /** The client address (X-Forwarded-For behind a trusted proxy); for a job's end, the address that submitted it. */
  ip: z.string().nullable(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  /** The target's name when the action named it (a template's, a task's, a backend's). */
  targetName: z.string().nullable(),
  /**
   * What was done, by action: prompt, model, backend, outputs ([{ produceId, sha256 }]) of a generation; delta,
   * balance and reason of a credit change; method, route, status and redacted body of an admin request; …
   */
  detail: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditLogPageSchema = pageSchema(auditEntrySchema);

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD')
  .optional();
const optionalText = (label: string, max: number) =>
  z.string().trim().max(max, `${label}不能超过 ${max} 个字符`).optional();

/** The filters of GET /api/admin/audit-log and of its CSV export. */
export const auditFilterSchema = z.object({
  /** Inclusive days in the admin's time zone, given by tzOffset. */
  dateFrom: isoDay,
  dateTo: isoDay,
  /** The browser's `Date#getTimezoneOffset()` in minutes (-480 in China); 0 = UTC days. */
  tzOffset: z.coerce.number().int('时区偏移须为整数').min(-840, '时区偏移不正确').max(840, '时区偏移不正确').default(0),
  userId: optionalText('用户编号', 64),
  /** A whole mobile number: the entries of the user who has it now. */
  mobile: z
    .string()
    .trim()
    .regex(/^1\d{10}$/, '请输入 11 位手机号')
    .optional(),
  action: z.enum(AUDIT_ACTIONS, { error: '操作类型不正确' }).optional(),
  category: z.enum(AUDIT_CATEGORIES, { error: '操作类别不正确' }).optional(),
  ip: optionalText('IP 地址', 64),
  apiKeyId: optionalText('API 密钥编号', 64),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

/** GET /api/admin/audit-log: newest first. */
export const auditLogQuerySchema = auditFilterSchema.extend({
  ...pagingFields(20),
});
export type AuditLogQuery = z.input<typeof auditLogQuerySchema>;

/** The columns of the CSV export (UTF-8 with a BOM, so Excel reads the Chinese), in order. */
export const AUDIT_CSV_HEADERS = [
  '时间',
  '操作',
  '操作代码',
  '用户编号',
  '手机号',
  '角色',
  'API 密钥',
  'IP 地址',
  '对象类型',
  '对象编号',
  '详情',
] as const;
