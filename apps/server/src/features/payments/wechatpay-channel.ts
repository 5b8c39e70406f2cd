import { Aes, Formatter, Rsa, Wechatpay } from 'wechatpay-axios-plugin';
import { z } from 'zod';
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
import type { WechatPayConfig } from './wechatpay-config.js';

/**
 * WeChat Pay API v3 (pay.weixin.qq.com/doc/v3/merchant) through the official-recommended SDK wechatpay-axios-plugin,
 * which signs each request (WECHATPAY2-SHA256-RSA2048 with the merchant API key) and refuses a 2xx answer whose
 * Wechatpay-Signature does not verify against the key its Wechatpay-Serial names. Notifications are checked here the
 * same way, then their resource is decrypted with the APIv3 key.
 */

/** A refused or failed call: WeChat's own code and message (ORDERPAID 订单已支付…), or the transport's. */
export class WechatPayError extends Error {
  constructor(
    /** The HTTP status of WeChat's answer; undefined when none came (timeout, connection refused). */
    readonly status: number | undefined,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Notifications older or newer than this (by Wechatpay-Timestamp) are replays or a wrong clock: refused. */
const MAX_CLOCK_SKEW_SECONDS = 300;
/** WeChat's limits: description string(127), refund reason string(80). */
const DESCRIPTION_MAX = 127;
const REASON_MAX = 80;

const transactionSchema = z.looseObject({
  appid: z.string(),
  mchid: z.string(),
  out_trade_no: z.string(),
  transaction_id: z.string().optional(),
  trade_state: z.string(),
  success_time: z.string().optional(),
  amount: z.looseObject({ total: z.number().int().optional() }).optional(),
});
type Transaction = z.infer<typeof transactionSchema>;

const refundSchema = z.looseObject({
  mchid: z.string().optional(),
  out_trade_no: z.string(),
  out_refund_no: z.string(),
  /** `status` in answers to refund and refund query, `refund_status` in refund notifications. */
  status: z.string().optional(),
  refund_status: z.string().optional(),
  amount: z.looseObject({ refund: z.number().int() }),
});
type Refund = z.infer<typeof refundSchema>;

const noticeSchema = z.object({
  id: z.string(),
  event_type: z.string(),
  resource_type: z.literal('encrypt-resource'),
  resource: z.object({
    algorithm: z.literal('AEAD_AES_256_GCM'),
    original_type: z.string(),
    ciphertext: z.string(),
    nonce: z.string(),
    associated_data: z.string().optional(),
  }),
});

/** trade_state → our view. USERPAYING and PAYERROR leave the trade open until it is paid or expires. */
const TRADE_STATES: Record<string, ChannelTrade['state']> = {
  SUCCESS: 'paid',
  REFUND: 'refunded',
  NOTPAY: 'pending',
  USERPAYING: 'pending',
  PAYERROR: 'pending',
  CLOSED: 'closed',
  REVOKED: 'closed',
};

/** Refund status → ours. ABNORMAL (the buyer's card is gone…) needs the merchant's hand, so it counts as failed. */
const REFUND_STATES: Record<string, ChannelRefund['state']> = {
  PROCESSING: 'processing',
  SUCCESS: 'succeeded',
  CLOSED: 'failed',
  ABNORMAL: 'failed',
};

/** time_expire in RFC 3339 at Beijing time, as WeChat's examples write it: 2026-11-27T22:45:00+08:00. */
function beijingTime(at: Date): string {
  return `${new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`;
}

/** A header by name in any case: Node lowercases them, a test or proxy may not. */
function header(headers: NoticeRequest['headers'], name: string): string | undefined {
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

export class WechatPayChannel implements PaymentChannel {
  readonly name = 'wechat';
  readonly devices: readonly PayDevice[];
  readonly merchantId: string;
  private readonly api: Wechatpay;

  constructor(
    private readonly config: WechatPayConfig,
    /** Where WeChat sends payment and refund notifications: PUBLIC_BASE_URL + the notify route. */
    private readonly notifyUrl: string,
  ) {
    this.devices = config.officialAccount ? ['desktop', 'phone', 'wechat'] : ['desktop', 'phone'];
    this.merchantId = config.merchantId;
    this.api = new Wechatpay({
      mchid: config.merchantId,
      serial: config.certSerial,
      privateKey: config.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      certs: config.verifiers,
      baseURL: `${config.baseUrl}/`,
      timeout: config.timeoutMs,
    });
  }

  /** App ids a trade of ours can carry: Native and H5 under the app id, JSAPI under the official account's. */
  get appIds(): readonly string[] {
    const mp = this.config.officialAccount?.appId;
    return mp && mp !== this.config.appId ? [this.config.appId, mp] : [this.config.appId];
  }

  async pay(request: PayRequest): Promise<PayAction> {
    const order = {
      mchid: this.config.merchantId,
      description: request.subject.slice(0, DESCRIPTION_MAX),
      out_trade_no: request.outTradeNo,
      time_expire: beijingTime(request.expiresAt),
      notify_url: this.notifyUrl,
      amount: { total: request.amountFen, currency: 'CNY' },
    };
    switch (request.device) {
      case 'desktop': {
        const data = await this.call('post', 'v3/pay/transactions/native', 'Native 下单', {
          appid: this.config.appId,
          ...order,
        });
        return { kind: 'qrcode', codeUrl: z.object({ code_url: z.string() }).parse(data).code_url };
      }
      case 'phone': {
        const data = await this.call('post', 'v3/pay/transactions/h5', 'H5 下单', {
          appid: this.config.appId,
          ...order,
          scene_info: { payer_client_ip: request.clientIp, h5_info: { type: 'Wap' } },
        });
        const h5Url = z.object({ h5_url: z.string() }).parse(data).h5_url;
        // WeChat's H5 guide: the page to come back to is appended to h5_url as redirect_url.
        const separator = h5Url.includes('?') ? '&' : '?';
        return { kind: 'redirect', url: `${h5Url}${separator}redirect_url=${encodeURIComponent(request.returnUrl)}` };
      }
      case 'wechat': {
        const account = this.config.officialAccount;
        if (!account) throw new Error('WeChat JSAPI needs WECHATPAY_MP_APP_ID and WECHATPAY_MP_APP_SECRET');
        if (!request.openid) throw new Error('WeChat JSAPI needs the buyer’s openid from the OAuth step');
        const data = await this.call('post', 'v3/pay/transactions/jsapi', 'JSAPI 下单', {
          appid: account.appId,
          ...order,
          payer: { openid: request.openid },
        });
        const prepayId = z.object({ prepay_id: z.string() }).parse(data).prepay_id;
        return { kind: 'jsapi', params: this.jsapiParams(account.appId, prepayId) };
      }
    }
  }

  /** What WeixinJSBridge getBrandWCPayRequest takes: paySign is RSA-SHA256 over appId\ntimeStamp\nnonceStr\npackage\n. */
  private jsapiParams(appId: string, prepayId: string): Record<string, string> {
    const params = {
      appId,
      timeStamp: String(Formatter.timestamp()),
      nonceStr: Formatter.nonce(),
      package: `prepay_id=${prepayId}`,
      signType: 'RSA',
    };
    const paySign = Rsa.sign(
      Formatter.joinedByLineFeed(params.appId, params.timeStamp, params.nonceStr, params.package),
      this.config.privateKey,
    );
    return { ...params, paySign };
  }

  async verifyNotice(request: NoticeRequest): Promise<ChannelNotice> {
    const timestamp = header(request.headers, 'Wechatpay-Timestamp');
    const nonce = header(request.headers, 'Wechatpay-Nonce');
    const signature = header(request.headers, 'Wechatpay-Signature');
    const serial = header(request.headers, 'Wechatpay-Serial');
    if (!timestamp || !nonce || !signature || !serial) throw new InvalidNotice('Wechatpay-* headers missing');
    if (!/^\d+$/.test(timestamp) || Math.abs(Formatter.timestamp() - Number(timestamp)) > MAX_CLOCK_SKEW_SECONDS) {
      throw new InvalidNotice('Wechatpay-Timestamp too far from now');
    }
    const key = Object.hasOwn(this.config.verifiers, serial) ? this.config.verifiers[serial] : undefined;
    if (!key) throw new InvalidNotice(`Wechatpay-Serial ${serial} is not a key of ours`);
    let verified = false;
    try {
      verified = Rsa.verify(Formatter.response(timestamp, nonce, request.rawBody), signature, key);
    } catch {
      verified = false;
    }
    // Also refuses WeChat's probes, whose signatures start with WECHATPAY/SIGNTEST/.
    if (!verified) throw new InvalidNotice('Wechatpay-Signature does not verify');

    let notice: z.infer<typeof noticeSchema>;
    try {
      notice = noticeSchema.parse(JSON.parse(request.rawBody));
    } catch {
      throw new InvalidNotice('not a WeChat Pay notification');
    }
    const { resource } = notice;
    let plain: unknown;
    try {
      plain = JSON.parse(
        Aes.AesGcm.decrypt(resource.ciphertext, this.config.apiV3Key, resource.nonce, resource.associated_data ?? ''),
      );
    } catch {
      throw new InvalidNotice('resource does not decrypt with the APIv3 key');
    }
    if (resource.original_type === 'transaction') {
      const trade = transactionSchema.safeParse(plain);
      if (!trade.success) throw new InvalidNotice('transaction resource malformed');
      return { kind: 'trade', trade: this.toTrade(trade.data) };
    }
    if (resource.original_type === 'refund') {
      const refund = refundSchema.safeParse(plain);
      if (!refund.success) throw new InvalidNotice('refund resource malformed');
      // A refund carries no app id to match, so the merchant is checked here.
      if (refund.data.mchid !== this.config.merchantId) throw new InvalidNotice('refund of another merchant');
      return { kind: 'refund', refund: this.toRefund(refund.data) };
    }
    throw new InvalidNotice(`resource ${resource.original_type} is not a trade or a refund`);
  }

  noticeAnswer(accepted: boolean): NoticeAnswer {
    // WeChat: 200 or 204 without a body once handled; otherwise 4xx/5xx with {code, message}, and it retries.
    return accepted
      ? { status: 204, contentType: 'application/json', body: '' }
      : { status: 400, contentType: 'application/json', body: JSON.stringify({ code: 'FAIL', message: '失败' }) };
  }

  async query(outTradeNo: string): Promise<ChannelTrade> {
    try {
      const data = await this.call(
        'get',
        `v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}?mchid=${this.config.merchantId}`,
        '查询订单',
      );
      return this.toTrade(transactionSchema.parse(data));
    } catch (err) {
      if (err instanceof WechatPayError && err.code === 'ORDER_NOT_EXIST') {
        return { outTradeNo, state: 'missing', raw: { code: err.code } };
      }
      throw err;
    }
  }

  async close(outTradeNo: string): Promise<void> {
    try {
      await this.call('post', `v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}/close`, '关闭订单', {
        mchid: this.config.merchantId,
      });
    } catch (err) {
      // Never seen or already closed: closed either way. ORDERPAID and the rest go to the caller.
      if (err instanceof WechatPayError && (err.code === 'ORDER_NOT_EXIST' || err.code === 'ORDER_CLOSED')) return;
      throw err;
    }
  }

  async refund(request: RefundRequest): Promise<ChannelRefund> {
    try {
      const data = await this.call('post', 'v3/refund/domestic/refunds', '申请退款', {
        out_trade_no: request.outTradeNo,
        out_refund_no: request.outRefundNo,
        reason: request.reason.slice(0, REASON_MAX),
        notify_url: this.notifyUrl,
        amount: { refund: request.refundFen, total: request.totalFen, currency: 'CNY' },
      });
      return this.toRefund(refundSchema.parse(data));
    } catch (err) {
      // WeChat refused this refund (NOT_ENOUGH 余额不足, INVALID_REQUEST…): nothing was refunded. Busy or broken
      // (429, 5xx, no answer) may still have refunded, so those throw and the same out_refund_no is retried.
      if (err instanceof WechatPayError && err.status !== undefined && err.status >= 400 && err.status < 429) {
        return { outRefundNo: request.outRefundNo, state: 'failed', raw: { code: err.code, message: err.message } };
      }
      throw err;
    }
  }

  async queryRefund(outTradeNo: string, outRefundNo: string): Promise<ChannelRefund> {
    try {
      const data = await this.call('get', `v3/refund/domestic/refunds/${encodeURIComponent(outRefundNo)}`, '查询退款');
      const refund = refundSchema.parse(data);
      if (refund.out_trade_no !== outTradeNo) {
        throw new WechatPayError(200, 'OUT_TRADE_NO_MISMATCH', `退款 ${outRefundNo} 不属于订单 ${outTradeNo}`);
      }
      return this.toRefund(refund);
    } catch (err) {
      // The refund request never reached WeChat: nothing was refunded.
      if (err instanceof WechatPayError && err.code === 'RESOURCE_NOT_EXISTS') {
        return { outRefundNo, state: 'failed', raw: { code: err.code, message: err.message } };
      }
      throw err;
    }
  }

  private toTrade(transaction: Transaction): ChannelTrade {
    return {
      outTradeNo: transaction.out_trade_no,
      state: TRADE_STATES[transaction.trade_state] ?? 'pending',
      tradeNo: transaction.transaction_id || undefined,
      amountFen: transaction.amount?.total,
      appId: transaction.appid,
      merchantId: transaction.mchid,
      paidAt: transaction.success_time ? new Date(transaction.success_time) : undefined,
      raw: transaction,
    };
  }

  private toRefund(refund: Refund): ChannelRefund {
    const status = refund.status ?? refund.refund_status ?? 'PROCESSING';
    return {
      outRefundNo: refund.out_refund_no,
      state: REFUND_STATES[status] ?? 'processing',
      refundFen: refund.amount.refund,
      raw: refund,
    };
  }

  /** One API call; every failure becomes a WechatPayError that names the step (and never holds the SDK's config). */
  private async call(method: 'get' | 'post', path: string, step: string, body?: object): Promise<unknown> {
    const resource = this.api.chain(path);
    try {
      const answer = method === 'get' ? await resource.get() : await resource.post(body);
      return answer.data;
    } catch (err) {
      const failure = err as { code?: string; message?: string; response?: { status?: number; data?: unknown } };
      const status = failure.response?.status;
      const answer = z.object({ code: z.string(), message: z.string() }).safeParse(failure.response?.data);
      if (answer.success) {
        throw new WechatPayError(
          status,
          answer.data.code,
          `微信支付${step}失败：${answer.data.code} ${answer.data.message}`,
        );
      }
      // The SDK's codes for a 2xx answer it could not verify (EV3_RES_HEADER_SIGNATURE_DIGEST…), a proxy's error
      // page, or the transport's (ECONNREFUSED, ECONNABORTED for a timeout…).
      const code = failure.code?.startsWith('EV3_')
        ? failure.code
        : status
          ? `HTTP_${status}`
          : (failure.code ?? 'REQUEST_FAILED');
      throw new WechatPayError(status, code, `微信支付${step}失败：${code}`);
    }
  }
}
