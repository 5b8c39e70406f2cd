import { z } from 'zod';
import { auditEntrySchema } from './audit.js';
import { pageSchema, pagingFields } from './envelope.js';
import { idOf } from './fields.js';

/**
 * Payments (docs/payments.md): plans bought online through Alipay or WeChat Pay. Every amount is in fen (分, an
 * integer); pages show it with formatFen as ¥ with two decimals.
 */

export const PAYMENT_CHANNEL_LABELS = { alipay: '支付宝', wechat: '微信支付' } as const;
export const paymentChannelSchema = z.enum(['alipay', 'wechat'], { error: '支付方式只能是支付宝或微信支付' });
export type PaymentChannelName = z.infer<typeof paymentChannelSchema>;

/** desktop: 电脑网站支付 / Native QR code; phone: 手机网站支付 / H5; wechat: JSAPI inside WeChat. */
export const payDeviceSchema = z.enum(['desktop', 'phone', 'wechat'], { error: '设备类型不正确' });
export type PayDevice = z.infer<typeof payDeviceSchema>;

export const ORDER_STATUS_LABELS = {
  pending: '待支付',
  paid: '已支付',
  partially_refunded: '部分退款',
  refunded: '已退款',
  closed: '已关闭',
} as const;
export const orderStatusSchema = z.enum(['pending', 'paid', 'partially_refunded', 'refunded', 'closed'], {
  error: '订单状态不正确',
});
export type OrderStatus = z.infer<typeof orderStatusSchema>;

/** Why a closed order closed: nobody paid before it expired, or the user cancelled it. */
export const ORDER_CLOSE_REASON_LABELS = { expired: '超时未支付', cancelled: '已取消' } as const;

/** 4900 → ¥49.00 */
export function formatFen(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(fen);
  return `${sign}¥${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A price in fen: at least 1 fen, at most ¥100,000. */
export const fenSchema = z
  .number({ error: '请填写金额' })
  .int('金额须为整数（单位：分）')
  .min(1, '金额至少为 0.01 元')
  .max(10_000_000, '金额不能超过 100000 元');

/** A configured channel and the devices it can take payments from (GET /api/account/combo/store). */
export const payChannelInfoSchema = z.object({
  name: paymentChannelSchema,
  label: z.string(),
  devices: z.array(payDeviceSchema),
});
export type PayChannelInfo = z.infer<typeof payChannelInfoSchema>;

/** What the page does to let the buyer pay. */
export const payActionSchema = z.discriminatedUnion('kind', [
  /** Open this address (Alipay page/wap pay, WeChat H5). */
  z.object({ kind: z.literal('redirect'), url: z.string() }),
  /** Draw this as a QR code (WeChat Native). */
  z.object({ kind: z.literal('qrcode'), codeUrl: z.string() }),
  /** Call WeixinJSBridge getBrandWCPayRequest with these parameters (WeChat JSAPI). */
  z.object({ kind: z.literal('jsapi'), params: z.record(z.string(), z.string()) }),
]);
export type PayAction = z.infer<typeof payActionSchema>;

/** An order as its buyer sees it (我的订单, the result page). */
export const orderSchema = z.object({
  /** Our order number (the channel's out_trade_no). */
  id: z.string(),
  planId: z.string(),
  /** The plan as it was when the order was made. */
  planName: z.string(),
  amountFen: z.number().int(),
  credits: z.number().int(),
  /** The plan's validity when ordered: the credits expire this many days after payment; null: never. */
  validityDays: z.number().int().nullable(),
  channel: paymentChannelSchema,
  status: orderStatusSchema,
  closeReason: z.enum(['expired', 'cancelled']).nullable(),
  /** What has been refunded so far. */
  refundedFen: z.number().int(),
  createdAt: z.string(),
  /** An unpaid order closes at this time (ISO-8601 UTC); the page counts down to it. */
  expiresAt: z.string(),
  paidAt: z.string().nullable(),
  closedAt: z.string().nullable(),
});
export type Order = z.infer<typeof orderSchema>;

/** `returnPath`: where the channel's page sends the buyer back to, a path of this site (the result page). */
const returnPathSchema = z
  .string()
  .trim()
  .max(200, '返回地址过长')
  .regex(/^\/(?!\/)[^\s\\]*$/, '返回地址须为本站路径，如 /pay/result');

/** POST /api/pay/orders: makes an order for a plan (or reuses the user's pending one) and answers how to pay it. */
export const createOrderBodySchema = z.object({
  planId: idOf('套餐编号'),
  channel: paymentChannelSchema,
  device: payDeviceSchema,
  /** `{orderId}` in it becomes the order's id; default /pay/result?orderId={orderId}. */
  returnPath: returnPathSchema.optional(),
  /** WeChat JSAPI only: the buyer's openid from the official account's OAuth step. */
  openid: z.string().trim().max(128).optional(),
});
export type CreateOrderBody = z.input<typeof createOrderBodySchema>;

/** POST /api/pay/orders/:id/pay: pay a pending order again (我的订单 → 继续支付). */
export const payAgainBodySchema = createOrderBodySchema.pick({ device: true, returnPath: true, openid: true });
export type PayAgainBody = z.input<typeof payAgainBodySchema>;

/**
 * GET /api/pay/wechat/authorize: where to send WeChat's browser for the official account's silent authorisation
 * (snsapi_base), which comes back to `returnPath` with `code` and `state` added.
 */
export const wechatAuthorizeQuerySchema = z.object({
  returnPath: returnPathSchema,
  /** Made by the page and checked when WeChat comes back, so a link with someone else's code is not taken. */
  state: z.string().regex(/^[A-Za-z0-9_-]{8,128}$/, '授权参数 state 格式不正确'),
});
export type WechatAuthorizeQuery = z.input<typeof wechatAuthorizeQuerySchema>;
export const wechatAuthorizeSchema = z.object({ url: z.string() });
export type WechatAuthorize = z.infer<typeof wechatAuthorizeSchema>;

/** POST /api/pay/wechat/openid: the code WeChat came back with, exchanged for the buyer's openid (JSAPI's payer). */
export const wechatOpenidBodySchema = z.object({
  code: z.string({ error: '缺少微信授权码' }).trim().min(1, '缺少微信授权码').max(128, '微信授权码过长'),
});
export type WechatOpenidBody = z.input<typeof wechatOpenidBodySchema>;
export const wechatOpenidSchema = z.object({ openid: z.string() });
export type WechatOpenid = z.infer<typeof wechatOpenidSchema>;

export const payOrderResultSchema = z.object({ order: orderSchema, action: payActionSchema });
export type PayOrderResult = z.infer<typeof payOrderResultSchema>;

/**
 * GET /api/pay/orders/:id (poll) and POST /api/pay/orders/:id/check (我已支付: asks the channel first): the order
 * and the buyer's credits now.
 */
export const orderWithBalanceSchema = z.object({ order: orderSchema, credits: z.number().int() });
export type OrderWithBalance = z.infer<typeof orderWithBalanceSchema>;

/** GET /api/pay/orders: 我的订单, newest first. */
export const myOrdersQuerySchema = z.object({
  ...pagingFields(10),
  status: orderStatusSchema.optional(),
});
export type MyOrdersQuery = z.input<typeof myOrdersQuerySchema>;
export const orderPageSchema = pageSchema(orderSchema);

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD')
  .optional();

/** The filters of GET /api/admin/orders and of its CSV export. Days are UTC+8 (China), inclusive. */
export const adminOrderFilterSchema = z.object({
  status: orderStatusSchema.optional(),
  channel: paymentChannelSchema.optional(),
  /** A user id, or an 11-digit mobile number. */
  user: z.string().trim().max(64, '用户编号过长').optional(),
  /** The order number or the channel's trade number. */
  orderId: z.string().trim().max(64, '订单号过长').optional(),
  dateFrom: isoDay,
  dateTo: isoDay,
  /** Only orders flagged for review (paid after closing, amount or credits that could not be taken back). */
  review: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});
export type AdminOrderFilter = z.input<typeof adminOrderFilterSchema>;
export const adminOrdersQuerySchema = adminOrderFilterSchema.extend({ ...pagingFields(20) });
export type AdminOrdersQuery = z.input<typeof adminOrdersQuerySchema>;

export const adminOrderSchema = orderSchema.extend({
  userId: z.string(),
  /** 138****5678 */
  mobile: z.string().nullable(),
  nickname: z.string().nullable(),
  /** The channel's trade number (Alipay trade_no, WeChat transaction_id). */
  tradeNo: z.string().nullable(),
  device: payDeviceSchema,
  /** Why an admin should look at it (paid after it closed, credits already spent at a refund …), or null. */
  review: z.string().nullable(),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;
export const adminOrderPageSchema = pageSchema(adminOrderSchema);

export const REFUND_STATUS_LABELS = { processing: '退款中', succeeded: '退款成功', failed: '退款失败' } as const;
export const refundStatusSchema = z.enum(['processing', 'succeeded', 'failed']);

export const orderRefundSchema = z.object({
  /** Our refund number (Alipay out_request_no, WeChat out_refund_no). */
  id: z.string(),
  amountFen: z.number().int(),
  reason: z.string(),
  status: refundStatusSchema,
  /** Credits taken back from the buyer for it. */
  creditsTaken: z.number().int(),
  /** Credits it should have taken back but the buyer had already spent. */
  creditsShort: z.number().int(),
  adminId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OrderRefund = z.infer<typeof orderRefundSchema>;

/** GET /api/admin/orders/:id: the order, what the channel last said about it, its refunds and its audit trail. */
export const adminOrderDetailSchema = z.object({
  order: adminOrderSchema,
  /** The channel's own fields from its last notification or query (never keys or signatures). */
  channelData: z.record(z.string(), z.unknown()).nullable(),
  refunds: z.array(orderRefundSchema),
  audit: z.array(auditEntrySchema),
  /** What refunding all that is left would do now; null when the order cannot be refunded. */
  refundPreview: z
    .object({
      refundableFen: z.number().int(),
      /** The buyer's credits now. */
      balance: z.number().int(),
      /**
       * Of those, how many a refund of this order can take back: what is left of its credits (a plan with a validity
       * keeps them apart until they expire), or the buyer's permanent credits for a plan without one.
       */
      takeable: z.number().int(),
      /** Credits a full refund of what is left takes back. */
      creditsToTake: z.number().int(),
      /** Of those, how many the buyer has already spent (cannot be taken back). */
      creditsShort: z.number().int(),
    })
    .nullable(),
});
export type AdminOrderDetail = z.infer<typeof adminOrderDetailSchema>;

/** POST /api/admin/orders/:id/refund: all or part of what is left; the credits go back in proportion. */
export const refundBodySchema = z.object({
  amountFen: fenSchema,
  reason: z.string({ error: '请填写退款原因' }).trim().min(1, '请填写退款原因').max(80, '退款原因不能超过 80 个字'),
});
export type RefundBody = z.input<typeof refundBodySchema>;

export const refundResultSchema = z.object({
  refund: orderRefundSchema,
  order: adminOrderSchema,
  /** Chinese advice for the admin when credits were already spent (e.g. 已用完 N 点，可在用户管理中扣减或与用户协商). */
  advice: z.string().nullable(),
});
export type RefundResult = z.infer<typeof refundResultSchema>;

/** The columns of GET /api/admin/orders/export (CSV, UTF-8 with a BOM), in order. */
export const ORDER_CSV_HEADERS = [
  '订单号',
  '用户编号',
  '手机号',
  '套餐',
  '金额（元）',
  '算力',
  '支付方式',
  '状态',
  '渠道交易号',
  '已退款（元）',
  '创建时间',
  '支付时间',
  '待核查',
] as const;

/** What a reconciliation found wrong with one order, as docs/payments.md § 对账 explains each kind. */
export const RECONCILIATION_KIND_LABELS = {
  missing_at_channel: '渠道查无此单',
  not_paid_at_channel: '渠道显示未支付',
  amount_mismatch: '金额不一致',
  trade_no_mismatch: '交易号不一致',
  paid_not_settled: '渠道已支付但本站未入账',
  query_failed: '查询渠道失败',
} as const;
export const reconciliationKindSchema = z.enum([
  'missing_at_channel',
  'not_paid_at_channel',
  'amount_mismatch',
  'trade_no_mismatch',
  'paid_not_settled',
  'query_failed',
]);

export const reconciliationMismatchSchema = z.object({
  orderId: z.string(),
  channel: paymentChannelSchema,
  kind: reconciliationKindSchema,
  /** Ours and the channel's view in words, e.g. 本站 ¥49.00 / 渠道 ¥0.49. */
  detail: z.string(),
});
export type ReconciliationMismatch = z.infer<typeof reconciliationMismatchSchema>;

/** GET /api/admin/payments/reconciliation?date=YYYY-MM-DD (UTC+8 day; default yesterday): the day's last run. */
export const reconciliationQuerySchema = z.object({ date: isoDay });
export const reconciliationSchema = z.object({
  date: z.string(),
  /** null: not run yet for that day. */
  ranAt: z.string().nullable(),
  /** Orders compared. */
  checked: z.number().int(),
  /** Empty on a correct day. */
  mismatches: z.array(reconciliationMismatchSchema),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;
/** POST /api/admin/payments/reconciliation: runs it now for a day (default yesterday). */
export const reconciliationRunBodySchema = z.object({ date: isoDay });

/** data of the order.paid and order.refunded webhook events. */
export const orderEventDataSchema = z.object({
  orderId: z.string(),
  planId: z.string(),
  planName: z.string(),
  amountFen: z.number().int(),
  credits: z.number().int(),
  channel: paymentChannelSchema,
  status: orderStatusSchema,
  /** order.refunded: this refund's amount and the credits it took back. */
  refundFen: z.number().int().optional(),
  creditsTaken: z.number().int().optional(),
});
export type OrderEventData = z.infer<typeof orderEventDataSchema>;
