/**
 * What the order service needs from a payment channel (Alipay, WeChat Pay). Each channel wraps its provider's
 * official SDK; the order service never sees a provider's field names. Amounts are always in fen (integers).
 */
export type PaymentChannelName = 'alipay' | 'wechat';

/** Where the buyer is paying from: picks the provider's product (电脑网站/手机网站, Native/H5/JSAPI). */
export type PayDevice = 'desktop' | 'phone' | 'wechat';

export type PayRequest = {
  /** Our order id, sent as out_trade_no. */
  outTradeNo: string;
  amountFen: number;
  /** What the buyer's bill shows (the plan's name). */
  subject: string;
  /** The channel closes the trade itself at this time too (Alipay time_expire, WeChat time_expire). */
  expiresAt: Date;
  device: PayDevice;
  /** The buyer's IP: WeChat H5 needs it (scene_info.payer_client_ip). */
  clientIp: string;
  /** Where the buyer's browser comes back to after paying (Alipay return_url, WeChat H5 redirect_url). */
  returnUrl: string;
  /** The buyer's openid for WeChat JSAPI (from the official account's OAuth step). */
  openid?: string;
};

/** What the page does to let the buyer pay. */
export type PayAction =
  /** Open this address (Alipay page/wap pay as a GET URL, WeChat H5 h5_url). */
  | { kind: 'redirect'; url: string }
  /** Draw this as a QR code (WeChat Native code_url). */
  | { kind: 'qrcode'; codeUrl: string }
  /** Call WeixinJSBridge getBrandWCPayRequest with these signed parameters (WeChat JSAPI). */
  | { kind: 'jsapi'; params: Record<string, string> };

/** The channel's view of one trade, from a verified notification or a query. */
export type ChannelTrade = {
  outTradeNo: string;
  state: 'paid' | 'pending' | 'closed' | 'refunded' | 'missing';
  /** The channel's trade number (Alipay trade_no, WeChat transaction_id). */
  tradeNo?: string;
  /** What the buyer paid, as the channel says (Alipay total_amount in yuan → fen; WeChat amount.total). */
  amountFen?: number;
  /** The app id and merchant id the trade belongs to, to be matched against ours. */
  appId?: string;
  merchantId?: string;
  paidAt?: Date;
  /** The provider's own fields, kept for the admin's order detail (never keys or signatures). */
  raw: Record<string, unknown>;
};

export type RefundRequest = {
  outTradeNo: string;
  /** Our refund id (Alipay out_request_no, WeChat out_refund_no). */
  outRefundNo: string;
  refundFen: number;
  totalFen: number;
  reason: string;
};

export type ChannelRefund = {
  outRefundNo: string;
  state: 'processing' | 'succeeded' | 'failed';
  refundFen?: number;
  raw: Record<string, unknown>;
};

/** A notification the channel sent, verified and decoded. */
export type ChannelNotice = { kind: 'trade'; trade: ChannelTrade } | { kind: 'refund'; refund: ChannelRefund };

/** The channel's HTTP request as received (the raw body is needed for signature checks). */
export type NoticeRequest = { headers: Record<string, string | string[] | undefined>; rawBody: string };

/** What we answer a notification with, in the form the provider expects (Alipay "success", WeChat 200/4xx JSON). */
export type NoticeAnswer = { status: number; contentType: string; body: string };

export interface PaymentChannel {
  readonly name: PaymentChannelName;
  /** Devices this channel is configured for (WeChat JSAPI only with an official account app id). */
  readonly devices: readonly PayDevice[];
  /**
   * Our app ids and merchant id at the channel: a trade must carry one of these and this (Alipay app_id/seller_id,
   * WeChat appid/mchid; a WeChat JSAPI trade carries the official account's app id).
   */
  readonly appIds: readonly string[];
  readonly merchantId: string | undefined;
  pay(request: PayRequest): Promise<PayAction>;
  /** Verifies the signature (and decrypts WeChat's resource); throws `InvalidNotice` when it does not verify. */
  verifyNotice(request: NoticeRequest): Promise<ChannelNotice>;
  noticeAnswer(accepted: boolean): NoticeAnswer;
  query(outTradeNo: string): Promise<ChannelTrade>;
  /** Closes an unpaid trade at the channel; a trade the channel never saw counts as closed. */
  close(outTradeNo: string): Promise<void>;
  refund(request: RefundRequest): Promise<ChannelRefund>;
  queryRefund(outTradeNo: string, outRefundNo: string): Promise<ChannelRefund>;
}

/** A notification whose signature or form does not verify: refused, never credited. */
export class InvalidNotice extends Error {}
