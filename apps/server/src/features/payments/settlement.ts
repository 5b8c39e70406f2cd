import type { OrderEventData, OrderStatus, PaymentChannelName } from '@huafang/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { nowIso } from '../../platform/ids.js';
import type { Repositories } from '../../repositories.js';
import type { AuditRecorder } from '../audit/audit-recorder.js';
import type { CreditChange, CreditService } from '../credits/credit.service.js';
import type { WebhookEvents } from '../webhooks/webhook-events.js';
import type { OrderRepository, OrderRow, RefundRow } from './order.repository.js';
import type {
  ChannelNotice,
  ChannelRefund,
  ChannelTrade,
  NoticeAnswer,
  NoticeRequest,
  PaymentChannel,
} from './payment-channel.js';
import type { PaymentChannels } from './payment-channels.js';

/** Where the channel's word came from: a verified notification, or our own query (我已支付, the sweep). */
export type TradeSource = 'notice' | 'query';

export type SettleOutcome = 'settled' | 'already' | 'refused';

const DAY_MS = 86_400_000;
const PAID_STATES = new Set(['paid', 'partially_refunded', 'refunded']);

export function eventData(order: OrderRow, status: OrderStatus): OrderEventData {
  return {
    orderId: order.id,
    planId: order.plan_id,
    planName: order.plan_name,
    amountFen: order.amount_fen,
    credits: order.credits,
    channel: order.channel as PaymentChannelName,
    status,
  };
}

/** What the channel said, kept for the admin's order detail. */
function channelData(raw: Record<string, unknown>): string {
  return JSON.stringify(raw);
}

/**
 * The one place money turns into credits and back. A trade is settled only when its state is paid and its app id,
 * merchant id, order number and amount match the order; settling locks the order row, checks it is still unpaid,
 * marks it paid and credits the plan in one transaction, so any number of notifications, checks and sweeps on any
 * number of processes settle it once. Refunds settle the same way.
 */
export class Settlement {
  private readonly orders: OrderRepository;

  constructor(
    private readonly repos: Repositories,
    private readonly channels: PaymentChannels,
    private readonly credits: CreditService,
    private readonly webhooks: WebhookEvents,
    private readonly audit: AuditRecorder,
    private readonly log: FastifyBaseLogger,
  ) {
    this.orders = repos.orders;
  }

  /** Why the channel's word cannot settle the order, or null when it can. */
  private refusal(order: OrderRow | undefined, trade: ChannelTrade, channel: PaymentChannel, source: TradeSource) {
    if (!order) return '订单不存在';
    if (order.channel !== channel.name) return '支付渠道与订单不符';
    if (trade.state !== 'paid') return `交易未成功（${trade.state}）`;
    if (!trade.tradeNo) return '缺少渠道交易号';
    if (trade.amountFen !== order.amount_fen)
      return `金额不符：订单 ${order.amount_fen} 分，渠道 ${trade.amountFen ?? '无'} 分`;
    // A notification must name our app and merchant; a query was made by our own app, its answer may omit them.
    if (source === 'notice' || trade.appId !== undefined) {
      if (!channel.appIds.includes(trade.appId ?? '')) return '应用编号（app id）与本站不符';
    }
    if (channel.merchantId !== undefined && (source === 'notice' || trade.merchantId !== undefined)) {
      if (trade.merchantId !== channel.merchantId) return '商户号与本站不符';
    }
    return null;
  }

  /** Settles what the channel says about one trade; refused trades are logged and audited, never credited. */
  async settleTrade(channel: PaymentChannel, trade: ChannelTrade, source: TradeSource): Promise<SettleOutcome> {
    const order = await this.orders.find(trade.outTradeNo);
    const refused = this.refusal(order, trade, channel, source);
    if (refused) {
      // A query that finds the trade still unpaid is no alarm; a notification that does not check out is.
      if (source === 'notice' || trade.state === 'paid') this.refuse(channel.name, trade, refused);
      return 'refused';
    }
    const result = await this.repos.transaction(async (trx) => {
      const locked = await this.orders.lock(trade.outTradeNo, trx);
      if (!locked || PAID_STATES.has(locked.status)) return null;
      const now = nowIso();
      // Paid after it closed (the buyer paid a cashier page still open): the money was taken, so it is credited,
      // and an admin looks at it.
      const review = locked.status === 'closed' ? '订单关闭后仍收到付款（已入账，请核查是否需要退款）' : null;
      const paidAt = trade.paidAt ?? new Date();
      await this.orders.update(
        locked.id,
        {
          status: 'paid',
          pending_key: null,
          trade_no: trade.tradeNo ?? null,
          paid_at: paidAt.toISOString(),
          channel_data: channelData(trade.raw),
          review: review ?? locked.review,
          updated_at: now,
        },
        trx,
      );
      // A plan with a validity: its credits expire that many days after the payment.
      const expiresAt = locked.validity_days
        ? new Date(paidAt.getTime() + locked.validity_days * DAY_MS).toISOString()
        : null;
      const change = await this.credits.creditOrder(locked.user_id, locked.credits, locked.id, trx, expiresAt);
      await this.webhooks.orderSettled(locked.user_id, 'order.paid', eventData(locked, 'paid'), trx);
      return { order: locked, change, review };
    });
    if (!result) return 'already';
    const { order: paid, change, review } = result;
    this.credits.recorded(change, { ip: null, apiKeyId: null });
    this.audit.record({
      action: 'order.paid',
      userId: paid.user_id,
      role: 'system',
      target: { type: 'order', id: paid.id },
      detail: { source, tradeNo: trade.tradeNo, amountFen: paid.amount_fen, credits: paid.credits, review },
    });
    if (review) {
      this.audit.record({
        action: 'order.review',
        userId: paid.user_id,
        role: 'system',
        target: { type: 'order', id: paid.id },
        detail: { review },
      });
    }
    this.webhooks.nudge();
    this.log.info({ orderId: paid.id, channel: channel.name, source }, 'order paid');
    return 'settled';
  }

  private refuse(channel: PaymentChannelName, trade: ChannelTrade, reason: string): void {
    const order = trade.outTradeNo;
    this.log.warn({ orderId: order, channel, reason, state: trade.state }, 'payment notice refused');
    this.audit.record({
      action: 'order.notice_refused',
      userId: null,
      role: 'system',
      target: { type: 'order', id: order },
      detail: {
        channel,
        reason,
        state: trade.state,
        amountFen: trade.amountFen ?? null,
        tradeNo: trade.tradeNo ?? null,
      },
    });
  }

  /** A notification that failed its signature check: logged and audited (its fields are not trusted). */
  private invalidNotice(channel: PaymentChannelName, reason: string): void {
    this.log.warn({ channel, reason }, 'payment notice refused: invalid signature or form');
    this.audit.record({
      action: 'order.notice_refused',
      userId: null,
      role: 'system',
      detail: { channel, reason },
    });
  }

  /**
   * A channel's notification: verified by the channel (signature, decryption), then settled like any other word
   * of the channel. Answered in the channel's form: accepted, or refused so the channel tries again.
   */
  async notice(channelName: string, request: NoticeRequest): Promise<NoticeAnswer | null> {
    const channel = this.channels.get(channelName);
    if (!channel) return null;
    let notice: ChannelNotice;
    try {
      notice = await channel.verifyNotice(request);
    } catch (err) {
      this.invalidNotice(channel.name, err instanceof Error ? err.message : 'invalid notice');
      return channel.noticeAnswer(false);
    }
    if (notice.kind === 'refund') {
      await this.settleRefund(notice.refund);
      return channel.noticeAnswer(true);
    }
    const outcome = await this.settleTrade(channel, notice.trade, 'notice');
    return channel.noticeAnswer(outcome !== 'refused');
  }

  /** Asks the channel about a pending order and settles it when paid; closes it when past its expiry. */
  async sync(order: OrderRow, now = Date.now()): Promise<void> {
    if (order.status !== 'pending') return;
    const channel = this.channels.get(order.channel);
    if (!channel) return;
    const trade = await channel.query(order.id);
    if (trade.state === 'paid') {
      await this.settleTrade(channel, trade, 'query');
      return;
    }
    if (Date.parse(order.expires_at) <= now) await this.close(order, 'expired');
  }

  /**
   * Closes an unpaid order here and at the channel. Asked first: a trade the channel says is paid is settled
   * instead. Answers the order as it is afterwards.
   */
  async close(order: OrderRow, reason: 'expired' | 'cancelled'): Promise<OrderRow> {
    const channel = this.channels.get(order.channel);
    if (channel) {
      const trade = await channel.query(order.id);
      if (trade.state === 'paid') {
        await this.settleTrade(channel, trade, 'query');
        return (await this.orders.find(order.id)) ?? order;
      }
      await channel.close(order.id);
    }
    const closed = await this.repos.transaction(async (trx) => {
      const locked = await this.orders.lock(order.id, trx);
      if (locked?.status !== 'pending') return false;
      const now = nowIso();
      await this.orders.update(
        order.id,
        { status: 'closed', pending_key: null, close_reason: reason, closed_at: now, updated_at: now },
        trx,
      );
      return true;
    });
    if (closed) {
      this.audit.record({
        action: 'order.closed',
        userId: order.user_id,
        role: reason === 'expired' ? 'system' : undefined,
        target: { type: 'order', id: order.id },
        detail: { reason },
      });
    }
    return (await this.orders.find(order.id)) ?? order;
  }

  /**
   * A refund the channel reports as done or failed (its answer, its notification, a refund query): settled once.
   * Done: the order's refunded total and status move. Failed: the credits it took back are given back.
   */
  async settleRefund(answer: ChannelRefund): Promise<void> {
    if (answer.state === 'processing') return;
    const result = await this.repos.transaction(async (trx) => {
      const refund = await this.orders.findRefund(answer.outRefundNo, trx);
      if (!refund) return null;
      const order = await this.orders.lock(refund.order_id, trx);
      if (!order) return null;
      const now = nowIso();
      const moved = await this.orders.moveRefund(
        refund.id,
        'processing',
        { status: answer.state, channel_data: channelData(answer.raw), updated_at: now },
        trx,
      );
      if (!moved) return null;
      if (answer.state === 'failed') {
        const change =
          refund.credits_taken > 0
            ? await this.credits.returnAfterFailedRefund(order.user_id, refund.credits_taken, order.id, trx)
            : null;
        return { order, refund, change, status: order.status as OrderStatus };
      }
      const refunded = order.refunded_fen + refund.amount_fen;
      const status: OrderStatus = refunded >= order.amount_fen ? 'refunded' : 'partially_refunded';
      await this.orders.update(order.id, { refunded_fen: refunded, status, updated_at: now }, trx);
      await this.webhooks.orderSettled(
        order.user_id,
        'order.refunded',
        { ...eventData(order, status), refundFen: refund.amount_fen, creditsTaken: refund.credits_taken },
        trx,
      );
      return { order, refund, change: null as CreditChange | null, status };
    });
    if (!result) return;
    this.recordRefund(result.order, result.refund, answer.state, result.change);
  }

  private recordRefund(order: OrderRow, refund: RefundRow, state: string, change: CreditChange | null): void {
    this.credits.recorded(change, { ip: null, apiKeyId: null });
    this.audit.record({
      action: 'order.refund_settled',
      userId: order.user_id,
      role: 'system',
      target: { type: 'order', id: order.id },
      detail: { refundId: refund.id, state, amountFen: refund.amount_fen, creditsReturned: change?.delta ?? 0 },
    });
    if (state === 'succeeded') this.webhooks.nudge();
  }
}
