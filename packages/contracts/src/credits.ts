import { z } from 'zod';
import { pageQuerySchema, pageSchema } from './envelope.js';

/** Why a user's credits changed: each change in the ledger carries one. */
export const creditReasonSchema = z.enum([
  'opening',
  'signup',
  'charge',
  'refund',
  'grant',
  'plan',
  'plan_refund',
  'refund_failed',
  'expire',
]);
export type CreditReason = z.infer<typeof creditReasonSchema>;

/** 算力明细's words for each reason. */
export const CREDIT_REASON_LABELS: Record<CreditReason, string> = {
  opening: '期初余额',
  signup: '注册赠送',
  charge: '生成消耗',
  refund: '生成退还',
  grant: '管理员调整',
  plan: '购买套餐',
  plan_refund: '套餐退款',
  refund_failed: '退款未成功，退回算力',
  expire: '算力过期',
};

/** What caused a change: a generation job, an admin's grant, a plan order. */
export const creditSourceTypeSchema = z.enum(['job', 'admin', 'order']);
export type CreditSourceType = z.infer<typeof creditSourceTypeSchema>;

/** One row of 算力明细 (GET /api/account/credits/ledger). */
export const creditLedgerEntrySchema = z.object({
  id: z.string(),
  /** Credits gained (positive) or spent (negative). */
  delta: z.number().int(),
  /** The balance right after this change. */
  balance: z.number().int(),
  reason: creditReasonSchema,
  sourceType: creditSourceTypeSchema.nullable(),
  sourceId: z.string().nullable(),
  /** What it was for, in words: the template of a generation, the plan of an order, an admin's remark. */
  detail: z.string().nullable(),
  createdAt: z.string(),
});
export type CreditLedgerEntry = z.infer<typeof creditLedgerEntrySchema>;

export const creditLedgerQuerySchema = pageQuerySchema;
export type CreditLedgerQuery = z.input<typeof creditLedgerQuerySchema>;

export const creditLedgerPageSchema = pageSchema(creditLedgerEntrySchema).extend({
  /** The user's credits now. */
  credits: z.number().int(),
  /** The plan credits that expire next (what is left of the soonest lot) and when; null when none will expire. */
  expiring: z.object({ credits: z.number().int(), expiresAt: z.string() }).nullable(),
});
export type CreditLedgerPage = z.infer<typeof creditLedgerPageSchema>;
