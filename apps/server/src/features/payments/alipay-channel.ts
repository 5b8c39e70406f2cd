import { createPrivateKey } from 'node:crypto';
import { AlipaySdk, type AlipaySdkConfig } from 'alipay-sdk';
import type { AlipayConfig } from '../../config.js';
import {
  type ChannelNotice,
  type ChannelRefund,
  type ChannelTrade,
  InvalidNotice,
  type NoticeAnswer,
  type NoticeRequest,
  type PayAction,
  type PayDevice,
  type PaymentChannel,
  type PayRequest,
  type RefundRequest,
} from './payment-channel.js';

/** Alipay's answer when the trade number is unknown to it (never opened the cashier, or another app's). */
const TRADE_NOT_EXIST = 'ACQ.TRADE_NOT_EXIST';
/** What Alipay's fields may be kept for the admin: everything but the signature. */
const SECRET_FIELDS = new Set(['sign', 'sign_type']);

/** "49.00" → 4900, without floating point; undefined for anything that is not a yuan amount. */
export function yuanToFen(yuan: unknown): number | undefined {
  if (typeof yuan !== 'string') return undefined;
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(yuan.trim());
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** 4900 → "49.00" */
export function fenToYuan(fen: number): string {
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

/** Alipay's dates are Beijing time, "yyyy-MM-dd HH:mm:ss". */
function beijingTime(date: Date): string {
  return new Date(date.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}

function fromBeijingTime(text: unknown): Date | undefined {
  if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)) return undefined;
  return new Date(`${text.replace(' ', 'T')}+08:00`);
}

/** PKCS#8 (BEGIN PRIVATE KEY, Alipay's key tool for Java) or PKCS#1 (BEGIN RSA PRIVATE KEY, the bare base64 of others). */
function keyType(privateKey: string): 'PKCS1' | 'PKCS8' {
  if (privateKey.includes('BEGIN PRIVATE KEY')) return 'PKCS8';
  if (privateKey.includes('BEGIN RSA PRIVATE KEY')) return 'PKCS1';
  try {
    createPrivateKey({ key: Buffer.from(privateKey.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'pkcs8' });
    return 'PKCS8';
  } catch {
    return 'PKCS1';
  }
}

function withoutSecrets(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !SECRET_FIELDS.has(key)));
}

/** Alipay's trade_status as a channel state. TRADE_CLOSED is both "closed unpaid" and "fully refunded". */
function stateOf(status: unknown): ChannelTrade['state'] {
  switch (status) {
    case 'TRADE_SUCCESS':
    case 'TRADE_FINISHED':
      return 'paid';
    case 'WAIT_BUYER_PAY':
      return 'pending';
    case 'TRADE_CLOSED':
      return 'closed';
    default:
      return 'missing';
  }
}

/**
 * Alipay through its official SDK (alipay-sdk v4, the classic gateway): 电脑网站支付 (alipay.trade.page.pay) on a
 * desktop, 手机网站支付 (alipay.trade.wap.pay) on a phone, both as a signed GET address; notifications verified with
 * checkNotifySignV2; query, close, refund and refund query. Every gateway answer's signature is checked.
 */
export class AlipayChannel implements PaymentChannel {
  readonly name = 'alipay' as const;
  readonly devices: readonly PayDevice[] = ['desktop', 'phone'];
  readonly appIds: readonly string[];
  readonly merchantId: string | undefined;
  private readonly sdk: AlipaySdk;

  constructor(
    config: AlipayConfig,
    /** PUBLIC_BASE_URL/api/pay/notify/alipay */
    private readonly notifyUrl: string,
  ) {
    this.appIds = [config.appId];
    this.merchantId = config.sellerId;
    const sdkConfig: AlipaySdkConfig = {
      appId: config.appId,
      privateKey: config.privateKey,
      keyType: keyType(config.privateKey),
      signType: 'RSA2',
      gateway: config.gateway,
      // Alipay's own field names, as its documents and the admin's order detail show them.
      camelcase: false,
      timeout: 10_000,
      ...(config.keys.mode === 'key'
        ? { alipayPublicKey: config.keys.alipayPublicKey }
        : {
            appCertContent: config.keys.appCert,
            alipayRootCertContent: config.keys.rootCert,
            alipayPublicCertContent: config.keys.publicCert,
          }),
    };
    this.sdk = new AlipaySdk(sdkConfig);
  }

  async pay(request: PayRequest): Promise<PayAction> {
    const phone = request.device === 'phone';
    const url = this.sdk.pageExecute(phone ? 'alipay.trade.wap.pay' : 'alipay.trade.page.pay', 'GET', {
      notify_url: this.notifyUrl,
      return_url: request.returnUrl,
      bizContent: {
        out_trade_no: request.outTradeNo,
        total_amount: fenToYuan(request.amountFen),
        subject: request.subject,
        product_code: phone ? 'QUICK_WAP_WAY' : 'FAST_INSTANT_TRADE_PAY',
        time_expire: beijingTime(request.expiresAt),
        ...(phone ? { quit_url: request.returnUrl } : {}),
      },
    });
    return { kind: 'redirect', url };
  }

  async verifyNotice(request: NoticeRequest): Promise<ChannelNotice> {
    const fields = Object.fromEntries(new URLSearchParams(request.rawBody));
    if (!fields.sign || !this.sdk.checkNotifySignV2(fields)) throw new InvalidNotice('支付宝通知验签失败');
    if (!fields.out_trade_no) throw new InvalidNotice('支付宝通知缺少 out_trade_no');
    const raw = withoutSecrets(fields);
    // A refund's notification carries the refund request number (out_biz_no) and the refunded total.
    if (fields.out_biz_no && fields.refund_fee) {
      return {
        kind: 'refund',
        refund: { outRefundNo: fields.out_biz_no, state: 'succeeded', refundFen: yuanToFen(fields.refund_fee), raw },
      };
    }
    return {
      kind: 'trade',
      trade: {
        outTradeNo: fields.out_trade_no,
        state: stateOf(fields.trade_status),
        tradeNo: fields.trade_no,
        amountFen: yuanToFen(fields.total_amount),
        appId: fields.app_id,
        merchantId: fields.seller_id,
        paidAt: fromBeijingTime(fields.gmt_payment),
        raw,
      },
    };
  }

  noticeAnswer(accepted: boolean): NoticeAnswer {
    // Alipay stops retrying on exactly "success"; anything else is retried over about 25 hours.
    return { status: 200, contentType: 'text/plain; charset=utf-8', body: accepted ? 'success' : 'fail' };
  }

  private async call(method: string, bizContent: Record<string, unknown>): Promise<Record<string, unknown>> {
    const result = (await this.sdk.exec(method, { bizContent }, { validateSign: true })) as Record<string, unknown>;
    return withoutSecrets(result);
  }

  async query(outTradeNo: string): Promise<ChannelTrade> {
    const result = await this.call('alipay.trade.query', { out_trade_no: outTradeNo });
    if (result.code !== '10000') {
      if (result.sub_code === TRADE_NOT_EXIST) return { outTradeNo, state: 'missing', raw: result };
      throw new Error(`支付宝查询失败：${String(result.sub_code ?? result.code)} ${String(result.sub_msg ?? '')}`);
    }
    return {
      outTradeNo,
      state: stateOf(result.trade_status),
      tradeNo: typeof result.trade_no === 'string' ? result.trade_no : undefined,
      amountFen: yuanToFen(result.total_amount),
      paidAt: fromBeijingTime(result.send_pay_date),
      raw: result,
    };
  }

  async close(outTradeNo: string): Promise<void> {
    const result = await this.call('alipay.trade.close', { out_trade_no: outTradeNo });
    if (result.code === '10000' || result.sub_code === TRADE_NOT_EXIST) return;
    throw new Error(`支付宝关闭交易失败：${String(result.sub_code ?? result.code)} ${String(result.sub_msg ?? '')}`);
  }

  async refund(request: RefundRequest): Promise<ChannelRefund> {
    const result = await this.call('alipay.trade.refund', {
      out_trade_no: request.outTradeNo,
      refund_amount: fenToYuan(request.refundFen),
      out_request_no: request.outRefundNo,
      refund_reason: request.reason,
    });
    if (result.code !== '10000') {
      return { outRefundNo: request.outRefundNo, state: 'failed', raw: result };
    }
    // fund_change Y: the money moved now; N: this request was already refunded, or is still being processed.
    return {
      outRefundNo: request.outRefundNo,
      state: result.fund_change === 'Y' ? 'succeeded' : 'processing',
      refundFen: request.refundFen,
      raw: result,
    };
  }

  async queryRefund(outTradeNo: string, outRefundNo: string): Promise<ChannelRefund> {
    const result = await this.call('alipay.trade.fastpay.refund.query', {
      out_trade_no: outTradeNo,
      out_request_no: outRefundNo,
    });
    if (result.code !== '10000') {
      throw new Error(`支付宝退款查询失败：${String(result.sub_code ?? result.code)} ${String(result.sub_msg ?? '')}`);
    }
    // An empty answer (no refund_status) means Alipay has no successful refund under that number.
    return {
      outRefundNo,
      state: result.refund_status === 'REFUND_SUCCESS' ? 'succeeded' : 'processing',
      refundFen: yuanToFen(result.refund_amount),
      raw: result,
    };
  }
}
