import {
  type AdminOrder,
  type AdminOrderDetail,
  type adminOrderFilterSchema,
  type adminOrdersQuerySchema,
  formatFen,
  maskMobile,
  ORDER_CSV_HEADERS,
  ORDER_STATUS_LABELS,
  type OrderRefund,
  PAYMENT_CHANNEL_LABELS,
  type Page,
  type PayDevice,
  type Reconciliation,
  type ReconciliationMismatch,
  type RefundResult,
  reconciliationMismatchSchema,
} from '@huafang/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { fail, notFound } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import type { Repositories } from '../../repositories.js';
import { auditEntries } from '../audit/audit.service.js';
import type { AuditOrigin, AuditRecorder } from '../audit/audit-recorder.js';
import type { CreditService } from '../credits/credit.service.js';
import type { OrderFilter, OrderRow, RefundRow } from './order.repository.js';
import { toOrder } from './order.service.js';
import type { PaymentChannels } from './payment-channels.js';
import type { Settlement } from './settlement.js';

type Filter = z.output<typeof adminOrderFilterSchema>;
type AdminRow = OrderRow & { user_mobile: string | null; user_nickname: string | null };

/** China keeps UTC+8 all year: the days admins pick and reconciliation counts are Beijing days. */
const CHINA_OFFSET_MS = 8 * 3600_000;
const DAY_MS = 86_400_000;
const EXPORT_MAX = 50_000;

function dayStart(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - CHINA_OFFSET_MS).toISOString();
}

function nextDayStart(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - CHINA_OFFSET_MS + DAY_MS).toISOString();
}

/** Yesterday in Beijing. */
export function chinaYesterday(now = Date.now()): string {
  return new Date(now + CHINA_OFFSET_MS - DAY_MS).toISOString().slice(0, 10);
}

function toAdminOrder(row: AdminRow): AdminOrder {
  return {
    ...toOrder(row),
    userId: row.user_id,
    mobile: row.user_mobile ? maskMobile(row.user_mobile) : null,
    nickname: row.user_nickname,
    tradeNo: row.trade_no,
    device: row.device as PayDevice,
    review: row.review,
  };
}

function toRefund(row: RefundRow): OrderRefund {
  return {
    id: row.id,
    amountFen: row.amount_fen,
    reason: row.reason,
    status: row.status as OrderRefund['status'],
    creditsTaken: row.credits_taken,
    creditsShort: row.credits_short,
    adminId: row.admin_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function cell(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A plan's credits with a validity may also have expired by the time of a refund. */
function goneWords(order: OrderRow): string {
  return order.validity_days === null ? '' : '或已过期';
}

/** Credits a refund of `refundFen` takes back: in proportion to the amount, all that is left for the last fen. */
function creditsFor(order: OrderRow, refunds: RefundRow[], refundFen: number): number {
  const live = refunds.filter((r) => r.status !== 'failed');
  const refundedOrPending = live.reduce((sum, r) => sum + r.amount_fen, 0);
  const accounted = live.reduce((sum, r) => sum + r.credits_taken + r.credits_short, 0);
  const left = order.credits - accounted;
  if (refundedOrPending + refundFen >= order.amount_fen) return Math.max(left, 0);
  return Math.min(Math.ceil((order.credits * refundFen) / order.amount_fen), Math.max(left, 0));
}

/** 订单管理 for admins: the list with filters, CSV, an order's detail, refunds, and the daily reconciliation. */
export class OrderAdminService {
  constructor(
    private readonly repos: Repositories,
    private readonly channels: PaymentChannels,
    private readonly settlement: Settlement,
    private readonly credits: CreditService,
    private readonly audit: AuditRecorder,
    private readonly log: FastifyBaseLogger,
  ) {}

  private rowFilter(filter: Filter): OrderFilter {
    const user = filter.user;
    return {
      status: filter.status,
      channel: filter.channel,
      ...(user && /^1\d{10}$/.test(user) ? { userMobile: user } : user ? { userId: user } : {}),
      orderId: filter.orderId,
      createdFrom: filter.dateFrom ? dayStart(filter.dateFrom) : undefined,
      createdBefore: filter.dateTo ? nextDayStart(filter.dateTo) : undefined,
      review: filter.review,
    };
  }

  async list(query: z.output<typeof adminOrdersQuerySchema>): Promise<Page<AdminOrder>> {
    const { total, list } = await this.repos.orders.adminPage(this.rowFilter(query), query.current, query.pageSize);
    return { list: list.map(toAdminOrder), current: query.current, pageSize: query.pageSize, total };
  }

  /** CSV with a BOM so Excel reads the Chinese; times in Beijing time. */
  async exportCsv(filter: Filter): Promise<string> {
    const rows = await this.repos.orders.adminRows(this.rowFilter(filter), EXPORT_MAX + 1);
    if (rows.length > EXPORT_MAX) throw fail(`符合条件的订单超过 ${EXPORT_MAX} 笔，请缩小日期范围`);
    const time = (iso: string | null) =>
      iso ? new Date(Date.parse(iso) + CHINA_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ') : '';
    const lines = rows.map((row) =>
      [
        row.id,
        row.user_id,
        row.user_mobile ? maskMobile(row.user_mobile) : '',
        row.plan_name,
        (row.amount_fen / 100).toFixed(2),
        row.credits,
        PAYMENT_CHANNEL_LABELS[row.channel as keyof typeof PAYMENT_CHANNEL_LABELS] ?? row.channel,
        ORDER_STATUS_LABELS[row.status as keyof typeof ORDER_STATUS_LABELS] ?? row.status,
        row.trade_no,
        (row.refunded_fen / 100).toFixed(2),
        time(row.created_at),
        time(row.paid_at),
        row.review,
      ]
        .map(cell)
        .join(','),
    );
    return `\uFEFF${[ORDER_CSV_HEADERS.join(','), ...lines].join('\r\n')}\r\n`;
  }

  private async adminRow(id: string): Promise<AdminRow> {
    const row = await this.repos.orders.withUserOf(id);
    if (!row) throw notFound('订单不存在');
    return row;
  }

  async detail(id: string): Promise<AdminOrderDetail> {
    const row = await this.adminRow(id);
    const [refunds, audit, balance, takeable] = await Promise.all([
      this.repos.orders.refundsOf(id),
      this.repos.orders.auditOf(id),
      this.credits.balance(row.user_id),
      this.credits.takeableForRefund(row.user_id, id),
    ]);
    const refundable =
      row.amount_fen - refunds.filter((r) => r.status !== 'failed').reduce((s, r) => s + r.amount_fen, 0);
    const canRefund = (row.status === 'paid' || row.status === 'partially_refunded') && refundable > 0;
    const creditsToTake = canRefund ? creditsFor(row, refunds, refundable) : 0;
    return {
      order: toAdminOrder(row),
      channelData: row.channel_data ? z.record(z.string(), z.unknown()).parse(JSON.parse(row.channel_data)) : null,
      refunds: refunds.map(toRefund),
      audit: await auditEntries(this.repos.audit, audit),
      refundPreview: canRefund
        ? {
            refundableFen: refundable,
            balance,
            takeable: Math.min(balance, takeable),
            creditsToTake,
            creditsShort: Math.max(creditsToTake - Math.min(balance, takeable), 0),
          }
        : null,
    };
  }

  /**
   * Refunds all or part of a paid order: the credits it granted go back first (as many as the buyer still has,
   * in the same transaction that records the refund), then the channel is asked to pay the money back. The
   * refund's state follows the channel's answer, its notification and the sweep's queries.
   */
  async refund(
    adminId: string,
    orderId: string,
    body: { amountFen: number; reason: string },
    origin: AuditOrigin,
  ): Promise<RefundResult> {
    const found = await this.repos.orders.find(orderId);
    if (!found) throw notFound('订单不存在');
    const channel = this.channels.get(found.channel);
    if (!channel) throw fail('该订单的支付渠道未开通，无法退款');
    const refundId = newId();
    const created = await this.repos.transaction(async (trx) => {
      const order = await this.repos.orders.lock(orderId, trx);
      if (!order) throw notFound('订单不存在');
      if (order.status !== 'paid' && order.status !== 'partially_refunded') throw fail('只有已支付的订单可以退款');
      const refunds = await this.repos.orders.refundsOf(orderId, trx);
      const refundable =
        order.amount_fen - refunds.filter((r) => r.status !== 'failed').reduce((s, r) => s + r.amount_fen, 0);
      if (body.amountFen > refundable) throw fail(`退款金额不能超过可退金额 ${formatFen(refundable)}`);
      const wanted = creditsFor(order, refunds, body.amountFen);
      const change = await this.credits.takeBackForRefund(order.user_id, wanted, order.id, trx);
      const taken = -change.delta;
      const short = wanted - taken;
      const now = nowIso();
      await this.repos.orders.insertRefund(
        {
          id: refundId,
          order_id: order.id,
          amount_fen: body.amountFen,
          reason: body.reason,
          status: 'processing',
          credits_taken: taken,
          credits_short: short,
          admin_id: adminId,
          created_at: now,
          updated_at: now,
        },
        trx,
      );
      const review = short > 0 ? `退款时用户已用掉${goneWords(order)} ${short} 点算力，未能扣回` : null;
      if (review) await this.repos.orders.update(order.id, { review, updated_at: now }, trx);
      return { order, change, taken, short, review };
    });
    this.credits.recorded(created.change.delta === 0 ? null : created.change, origin);
    this.audit.record({
      action: 'order.refund',
      userId: adminId,
      origin,
      target: { type: 'order', id: orderId },
      detail: {
        refundId,
        amountFen: body.amountFen,
        reason: body.reason,
        creditsTaken: created.taken,
        creditsShort: created.short,
      },
    });
    try {
      const answer = await channel.refund({
        outTradeNo: orderId,
        outRefundNo: refundId,
        refundFen: body.amountFen,
        totalFen: created.order.amount_fen,
        reason: body.reason,
      });
      await this.settlement.settleRefund(answer);
    } catch (err) {
      // The channel may or may not have it: the refund stays 退款中 and the sweep asks the channel again.
      this.log.warn({ err, orderId, refundId }, 'refund request failed; the sweep will query it');
    }
    const refund = await this.repos.orders.findRefund(refundId);
    return {
      refund: toRefund(refund!),
      order: toAdminOrder(await this.adminRow(orderId)),
      advice:
        created.short > 0
          ? `用户已用掉${goneWords(created.order)}该订单的 ${created.short} 点算力，无法扣回。可与用户协商，或在用户管理中为其扣减算力；订单已标记为待核查。`
          : null,
    };
  }

  async reconciliation(day: string = chinaYesterday()): Promise<Reconciliation> {
    const row = await this.repos.orders.findReconciliation(day);
    if (!row) return { date: day, ranAt: null, checked: 0, mismatches: [] };
    return {
      date: day,
      ranAt: row.ran_at,
      checked: row.checked,
      mismatches: z.array(reconciliationMismatchSchema).parse(JSON.parse(row.mismatches)),
    };
  }

  /**
   * Compares one Beijing day's orders with what their channel says (a query per order) and keeps the mismatches
   * for 订单管理 → 对账; a correct day has none. Run daily for yesterday, and by an admin for any day.
   */
  async reconcile(day: string = chinaYesterday()): Promise<Reconciliation> {
    const orders = await this.repos.orders.ofDay(dayStart(day), nextDayStart(day));
    const mismatches: ReconciliationMismatch[] = [];
    for (const order of orders) {
      const found = await this.compare(order);
      if (found) mismatches.push(found);
    }
    const ranAt = nowIso();
    await this.repos.orders.saveReconciliation({
      day,
      ran_at: ranAt,
      checked: orders.length,
      mismatches: JSON.stringify(mismatches),
    });
    if (mismatches.length > 0)
      this.log.warn({ day, mismatches: mismatches.length }, 'payment reconciliation mismatches');
    return { date: day, ranAt, checked: orders.length, mismatches };
  }

  private async compare(order: OrderRow): Promise<ReconciliationMismatch | null> {
    const channel = this.channels.get(order.channel);
    const base = { orderId: order.id, channel: order.channel as ReconciliationMismatch['channel'] };
    if (!channel) return { ...base, kind: 'query_failed', detail: '该渠道已不再配置，无法查询' };
    let trade: Awaited<ReturnType<typeof channel.query>>;
    try {
      trade = await channel.query(order.id);
    } catch (err) {
      return { ...base, kind: 'query_failed', detail: err instanceof Error ? err.message : '查询失败' };
    }
    const paidHere = order.status !== 'pending' && order.status !== 'closed';
    if (!paidHere) {
      return trade.state === 'paid'
        ? {
            ...base,
            kind: 'paid_not_settled',
            detail: `本站${ORDER_STATUS_LABELS[order.status as 'closed']}，渠道已支付`,
          }
        : null;
    }
    if (trade.state === 'missing') return { ...base, kind: 'missing_at_channel', detail: '本站已支付，渠道查无此单' };
    // A fully refunded trade shows as closed at Alipay. WeChat shows a trade as REFUND from the moment a refund of
    // any part is asked for: ours when we asked (still processing or done), a mismatch when someone refunded it on
    // the merchant platform.
    const refunded =
      (order.status === 'refunded' && trade.state === 'closed') ||
      (trade.state === 'refunded' &&
        (await this.repos.orders.refundsOf(order.id)).some((refund) => refund.status !== 'failed'));
    if (trade.state !== 'paid' && !refunded) {
      return { ...base, kind: 'not_paid_at_channel', detail: `本站已支付，渠道状态为 ${trade.state}` };
    }
    if (trade.amountFen !== undefined && trade.amountFen !== order.amount_fen) {
      return {
        ...base,
        kind: 'amount_mismatch',
        detail: `本站 ${formatFen(order.amount_fen)} / 渠道 ${formatFen(trade.amountFen)}`,
      };
    }
    if (trade.tradeNo && order.trade_no && trade.tradeNo !== order.trade_no) {
      return { ...base, kind: 'trade_no_mismatch', detail: `本站 ${order.trade_no} / 渠道 ${trade.tradeNo}` };
    }
    return null;
  }
}
