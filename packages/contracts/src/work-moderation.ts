import { z } from 'zod';
import { pageSchema, pagingFields } from './envelope.js';
import { idOf } from './fields.js';
import { pictureFields } from './files.js';
import { keysOf } from './keys.js';
import { workAuthorSchema } from './works.js';

/**
 * 内容审核 of works: the provider's checks before publication, users' reports (举报) of public works, and the admin
 * queue (作品审核 › 待审核) with its decisions. docs/compliance.md § 内容审核 says what is checked when and what
 * happens when the provider does not answer.
 */

/** Why a user reports a public work, with the words the report dialog and the admin queue show. */
export const WORK_REPORT_REASON_LABELS = {
  porn: '色情低俗',
  violence: '暴力血腥',
  politics: '政治敏感',
  illegal: '违法违规',
  minors: '危害未成年人',
  infringement: '侵犯权益（肖像、版权等）',
  spam: '垃圾广告',
  other: '其他',
} as const;
export type WorkReportReason = keyof typeof WORK_REPORT_REASON_LABELS;
export const WORK_REPORT_REASONS = keysOf(WORK_REPORT_REASON_LABELS);
export const WORK_REPORT_DETAIL_MAX = 200;

/** POST /api/works/report: once per user and work; 其他 needs a few words of explanation. */
export const workReportBodySchema = z
  .object({
    id: idOf('作品'),
    reason: z.enum(WORK_REPORT_REASONS, { error: '请选择举报原因' }),
    detail: z
      .string()
      .trim()
      .max(WORK_REPORT_DETAIL_MAX, `补充说明不能超过 ${WORK_REPORT_DETAIL_MAX} 个字`)
      .optional()
      .transform((v) => v || undefined),
  })
  .refine((body) => body.reason !== 'other' || body.detail, {
    message: '选择“其他”时请说明举报原因',
    path: ['detail'],
  });
export type WorkReportBody = z.input<typeof workReportBodySchema>;

/** What put a work in the queue: the provider's image or prompt check, or a user's report. */
export const MODERATION_ITEM_KIND_LABELS = { image: '图片审核', text: '提示词审核', report: '用户举报' } as const;
export type ModerationItemKind = keyof typeof MODERATION_ITEM_KIND_LABELS;
export const MODERATION_ITEM_KINDS = keysOf(MODERATION_ITEM_KIND_LABELS);

/** The provider's advice on a flagged work: a person should look (review), or it must not be shown (block). */
export const MODERATION_VERDICT_LABELS = { review: '建议复核', block: '建议拦截' } as const;
export type ModerationVerdictKind = keyof typeof MODERATION_VERDICT_LABELS;

/** An admin's decision on a work in the queue. */
export const MODERATION_DECISION_LABELS = { approve: '通过', remove: '下架' } as const;
export type ModerationDecisionKind = keyof typeof MODERATION_DECISION_LABELS;

/** One reason a work is in the queue. */
export const moderationItemSchema = z.object({
  id: z.string(),
  kind: z.enum(MODERATION_ITEM_KINDS),
  /** The provider's advice; null for a report. */
  verdict: z.enum(['review', 'block']).nullable(),
  /** In Chinese: the provider's reason (色情, 广告引流…) or the report's reason (色情低俗…). */
  label: z.string(),
  /** The provider's own words (label, score, keywords) or the reporter's explanation. */
  detail: z.string().nullable(),
  /** Who reported it; null for the provider's checks. */
  reporter: z.string().nullable(),
  createdAt: z.string(),
});
export type ModerationItem = z.infer<typeof moderationItemSchema>;

/** A work as the admin queue and history show it: its links are signed (a flagged work is private). */
export const moderatedWorkSchema = z.object({
  id: z.string(),
  ...pictureFields,
  templateName: z.string(),
  prompt: z.string(),
  authorId: z.string(),
  author: workAuthorSchema,
  /** On 灵感广场 now (published and not hidden). */
  public: z.boolean(),
  /** The author asked to publish it and it waits for this decision: 通过 publishes it. */
  publishPending: z.boolean(),
});
export type ModeratedWork = z.infer<typeof moderatedWorkSchema>;

/** GET /api/admin/works/moderation: works with undecided flags or reports, the longest-waiting first. */
export const moderationQueueItemSchema = z.object({
  work: moderatedWorkSchema,
  items: z.array(moderationItemSchema),
  /** When its oldest undecided reason arrived. */
  since: z.string(),
});
export type ModerationQueueItem = z.infer<typeof moderationQueueItemSchema>;
export const moderationQueuePageSchema = pageSchema(moderationQueueItemSchema);

/** `kind`: all, the provider's flags only (flagged), or users' reports only (reported). */
export const moderationQueueQuerySchema = z.object({
  ...pagingFields(20),
  kind: z.enum(['all', 'flagged', 'reported'], { error: '筛选条件不正确' }).default('all'),
});
export type ModerationQueueQuery = z.input<typeof moderationQueueQuerySchema>;

export const MODERATION_NOTE_MAX = 200;
/** POST /api/admin/works/moderation/decide: decides every undecided reason of the work at once. */
export const moderationDecideBodySchema = z.object({
  id: idOf('作品'),
  decision: z.enum(keysOf(MODERATION_DECISION_LABELS), { error: '请选择通过或下架' }),
  note: z
    .string()
    .trim()
    .max(MODERATION_NOTE_MAX, `备注不能超过 ${MODERATION_NOTE_MAX} 个字`)
    .optional()
    .transform((v) => v || undefined),
});
export type ModerationDecideBody = z.input<typeof moderationDecideBodySchema>;

/** One line of a decision's reasons: how many of a kind and reason it decided. */
export const moderationReasonCountSchema = z.object({
  kind: z.enum(MODERATION_ITEM_KINDS),
  label: z.string(),
  count: z.number().int(),
});
export type ModerationReasonCount = z.infer<typeof moderationReasonCountSchema>;

/** GET /api/admin/works/moderation/history: decisions, newest first; `work` is null once the author deleted it. */
export const moderationHistoryEntrySchema = z.object({
  id: z.string(),
  workId: z.string(),
  work: moderatedWorkSchema.nullable(),
  decision: z.enum(keysOf(MODERATION_DECISION_LABELS)),
  /** The admin who decided: nickname, else account. */
  admin: z.string(),
  adminId: z.string(),
  note: z.string().nullable(),
  reasons: z.array(moderationReasonCountSchema),
  createdAt: z.string(),
});
export type ModerationHistoryEntry = z.infer<typeof moderationHistoryEntrySchema>;
export const moderationHistoryPageSchema = pageSchema(moderationHistoryEntrySchema);
export const moderationHistoryQuerySchema = z.object({
  ...pagingFields(20),
  workId: z.string().max(64).optional(),
});
export type ModerationHistoryQuery = z.input<typeof moderationHistoryQuerySchema>;
