import type {
  createOrderBodySchema,
  myOrdersQuerySchema,
  Order,
  OrderWithBalance,
  Page,
  PayDevice,
  PaymentChannelName,
  PayOrderResult,
} from '@huafang/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { fail, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Repositories } from '../../repositories.js';
import type { AuditOrigin, AuditRecorder } from '../audit/audit-recorder.js';
import type { CreditService } from '../credits/credit.service.js';
import type { OrderRow } from './order.repository.js';
import type { PaymentChannel } from './payment-channel.js';
import type { PaymentChannels } from './payment-channels.js';
import type { Settlement } from './settlement.js';

type CreateBody = z.output<typeof createOrderBodySchema>;
type PayOptions = { device: PayDevice; returnPath?: string; openid?: string; clientIp: string };

/** An order about to expire is not handed out again: the buyer would not have time to pay it. */
const REUSE_MARGIN_MS = 2 * 60_000;
const DEFAULT_RETURN_PATH = '/pay/result?orderId={orderId}';

export function toOrder(row: OrderRow): Order {
  return {
    id: row.id,
    planId: row.plan_id,
    planName: row.plan_name,
    amountFen: row.amount_fen,
    credits: row.credits,
    validityDays: row.validity_days,
    channel: row.channel as PaymentChannelName,
    status: row.status as Order['status'],
    closeReason: row.close_reason as Order['closeReason'],
    refundedFen: row.refunded_fen,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    paidAt: row.paid_at,
    closedAt: row.closed_at,
  };
}

/** The buyer's side of payments: make or reuse an order, pay it, check it (我已支付), cancel it, list 我的订单. */
export class OrderService {
  constructor(
    private readonly repos: Repositories,
    private readonly channels: PaymentChannels,
    private readonly settlement: Settlement,
    private readonly credits: CreditService,
    private readonly audit: AuditRecorder,
    private readonly options: { orderTtlMs: number; publicBaseUrl: string | undefined },
    private readonly log: FastifyBaseLogger,
  ) {}

  private channel(name: string, device: PayDevice): PaymentChannel {
    const channel = this.channels.get(name);
    if (!channel) throw fail('该支付方式未开通');
    if (!channel.devices.includes(device)) throw fail('该支付方式不支持当前设备，请换一种支付方式');
    return channel;
  }

  /** One pending order per user and plan: a second buy (or twenty at once, on any process) finds the same one. */
  async create(userId: string, body: CreateBody, origin: AuditOrigin): Promise<PayOrderResult> {
    const channel = this.channel(body.channel, body.device);
    const plan = await this.repos.combos.find(body.planId);
    if (plan?.enabled !== 1) throw notFound('套餐不存在或已下架');
    if (plan.purchasable !== 1 || plan.price_fen <= 0) throw fail('该套餐暂不支持在线购买，请联系管理员');
    const pendingKey = `${userId}:${plan.id}`;
    const existing = await this.repos.orders.findPending(pendingKey);
    if (existing) {
      const fits =
        existing.channel === channel.name &&
        existing.device === body.device &&
        existing.amount_fen === plan.price_fen &&
        existing.credits === plan.credits &&
        existing.validity_days === plan.validity_days &&
        Date.parse(existing.expires_at) - Date.now() > REUSE_MARGIN_MS;
      if (fits) return { order: toOrder(existing), action: await this.payAction(channel, existing, body, origin) };
      // Another channel or device, a changed plan or nearly expired: the old one is closed at its channel first, so
      // one purchase can never be paid twice through two cashiers (and WeChat refuses one out_trade_no placed again
      // for another product as 商户订单号重复).
      await this.settlement.close(existing, 'cancelled').catch(() => {
        throw fail('暂时无法关闭之前的待支付订单，请稍后再试');
      });
    }
    const now = Date.now();
    const row = {
      id: newId(),
      user_id: userId,
      plan_id: plan.id,
      plan_name: plan.name,
      amount_fen: plan.price_fen,
      credits: plan.credits,
      validity_days: plan.validity_days,
      channel: channel.name,
      device: body.device,
      status: 'pending',
      pending_key: pendingKey,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + this.options.orderTtlMs).toISOString(),
      updated_at: new Date(now).toISOString(),
    };
    const inserted = await this.repos.orders.insertPending(row);
    const order = inserted ? row : await this.repos.orders.findPending(pendingKey);
    if (!order || order.channel !== channel.name) throw fail('已有一笔待支付订单正在处理，请稍后再试');
    const saved = (await this.repos.orders.find(order.id))!;
    if (inserted) {
      this.audit.record({
        action: 'order.create',
        userId,
        origin,
        target: { type: 'order', id: saved.id },
        detail: { planId: plan.id, planName: plan.name, amountFen: plan.price_fen, channel: channel.name },
      });
    }
    return { order: toOrder(saved), action: await this.payAction(channel, saved, body, origin) };
  }

  /**
   * 继续支付 from 我的订单. On another device the channel's product changes (Native ↔ H5 ↔ JSAPI, 电脑网站 ↔ 手机网站),
   * which WeChat refuses under the same order number (商户订单号重复): the order is closed and the plan ordered anew,
   * and the page follows the new order.
   */
  async payAgain(userId: string, orderId: string, options: PayOptions, origin: AuditOrigin): Promise<PayOrderResult> {
    const order = await this.mine(userId, orderId);
    if (order.status !== 'pending' || Date.parse(order.expires_at) <= Date.now()) {
      throw fail('订单已支付、已关闭或已过期，无法继续支付');
    }
    if (order.device !== options.device) {
      const again = { ...options, planId: order.plan_id, channel: order.channel as PaymentChannelName };
      return this.create(userId, again, origin);
    }
    const channel = this.channel(order.channel, options.device);
    return { order: toOrder(order), action: await this.payAction(channel, order, options, null) };
  }

  private payAction(
    channel: PaymentChannel,
    order: OrderRow,
    options: { device: PayDevice; returnPath?: string; openid?: string; clientIp?: string },
    origin: AuditOrigin | null,
  ) {
    if (options.device === 'wechat' && !options.openid) throw fail('请在微信中授权后再支付');
    const path = (options.returnPath ?? DEFAULT_RETURN_PATH).replaceAll('{orderId}', order.id);
    return channel.pay({
      outTradeNo: order.id,
      amountFen: order.amount_fen,
      subject: `画坊 ${order.plan_name}`,
      expiresAt: new Date(order.expires_at),
      device: options.device,
      clientIp: options.clientIp ?? origin?.ip ?? '127.0.0.1',
      returnUrl: `${this.options.publicBaseUrl ?? ''}${path}`,
      ...(options.openid ? { openid: options.openid } : {}),
    });
  }

  private async mine(userId: string, orderId: string): Promise<OrderRow> {
    const order = await this.repos.orders.find(orderId);
    // Another user's order is "not found": ids leak nothing.
    if (!order || order.user_id !== userId) throw notFound('订单不存在');
    return order;
  }

  private async withBalance(userId: string, order: OrderRow): Promise<OrderWithBalance> {
    return { order: toOrder(order), credits: await this.credits.balance(userId) };
  }

  /** The result page's poll: the order as we know it. */
  async status(userId: string, orderId: string): Promise<OrderWithBalance> {
    return this.withBalance(userId, await this.mine(userId, orderId));
  }

  /** 我已支付, or the buyer back from the cashier: asks the channel, so a lost notification loses nothing. */
  async check(userId: string, orderId: string): Promise<OrderWithBalance> {
    const order = await this.mine(userId, orderId);
    if (order.status === 'pending') {
      try {
        await this.settlement.sync(order);
      } catch {
        throw fail('暂时无法向支付渠道确认支付结果，请稍后再试');
      }
    }
    return this.withBalance(userId, await this.mine(userId, orderId));
  }

  async cancel(userId: string, orderId: string): Promise<OrderWithBalance> {
    const order = await this.mine(userId, orderId);
    if (order.status !== 'pending') throw fail('只能取消待支付的订单');
    let after: OrderRow;
    try {
      after = await this.settlement.close(order, 'cancelled');
    } catch {
      throw fail('暂时无法关闭订单，请稍后再试');
    }
    return this.withBalance(userId, after);
  }

  async list(userId: string, query: z.output<typeof myOrdersQuerySchema>): Promise<Page<Order>> {
    const { current, pageSize } = query;
    const { total, list } = await this.repos.orders.pageOfUser(userId, query.status, current, pageSize);
    return { list: list.map(toOrder), current, pageSize, total };
  }

  /** The sweep, every minute: pending orders asked about at their channel, settled when paid, closed when expired. */
  async sweep(limit = 200): Promise<void> {
    for (const order of await this.repos.orders.pending(limit)) {
      await this.settlement
        .sync(order)
        .catch((err: unknown) => this.log.warn({ err, orderId: order.id }, 'payment sweep: channel query failed'));
    }
    for (const refund of await this.repos.orders.processingRefunds(limit)) {
      const order = await this.repos.orders.find(refund.order_id);
      const channel = order && this.channels.get(order.channel);
      if (!channel) continue;
      const answer = await channel.queryRefund(order.id, refund.id).catch((err: unknown) => {
        this.log.warn({ err, refundId: refund.id }, 'payment sweep: refund query failed');
        return null;
      });
      if (answer) await this.settlement.settleRefund(answer);
    }
  }
}
