import {
  createCipheriv,
  createPrivateKey,
  createPublicKey,
  createSecretKey,
  createSign,
  createVerify,
  generateKeyPair,
  type KeyObject,
  randomBytes,
  randomUUID,
  X509Certificate,
} from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { generate } from 'selfsigned';
import { loadWechatPayConfig, type WechatPayConfig } from '../../src/features/payments/wechatpay-config.js';
import {
  header,
  type ProviderDouble,
  playTransportFailure,
  startProviderServer,
  type TransportFailure,
} from './provider-double.js';

/**
 * A stand-in for WeChat Pay API v3 (pay.weixin.qq.com/doc/v3/merchant) on 127.0.0.1, as the documentation describes it:
 * - every request carries `Authorization: WECHATPAY2-SHA256-RSA2048 mchid="…",serial_no="…",timestamp="…",
 *   nonce_str="…",signature="…"`, the signature being SHA256-RSA over `METHOD\nPATH?QUERY\ntimestamp\nnonce\nbody\n`
 *   with the merchant API private key; it is verified with the merchant's public key (401 SIGN_ERROR otherwise);
 * - every answer carries Wechatpay-Timestamp, -Nonce, -Serial and -Signature (SHA256-RSA over
 *   `timestamp\nnonce\nbody\n`) made with WeChat's key: the WeChat Pay public key (Serial = its PUB_KEY_ID_…) or the
 *   platform certificate's (Serial = the certificate's serial number);
 * - Native / H5 / JSAPI orders, query by out_trade_no, close, refund and refund query, with their documented fields
 *   and error answers `{code, message}`;
 * - its cashier marks a trade paid (or a refund done) and POSTs the notification to the notify_url: the same headers,
 *   and the trade or refund encrypted with AEAD_AES_256_GCM under the APIv3 key in `resource`.
 * It also serves the H5 cashier page h5_url leads to (on its own address instead of wx.tenpay.com, so a browser test
 * can open it), and answers the official account's web authorisation (open.weixin.qq.com /connect/oauth2/authorize
 * and api.weixin.qq.com /sns/oauth2/access_token) for JSAPI's openid. The real API wants an https notify_url; this one
 * also takes the tests' http://127.0.0.1 receivers.
 */

export type WechatPayMode = 'public-key' | 'platform-cert';

/** The merchant and WeChat's side of the keys, as the tests generate them. */
export type WechatPayAccount = {
  mode: WechatPayMode;
  merchantId: string;
  appId: string;
  mpAppId: string;
  mpAppSecret: string;
  apiV3Key: string;
  merchantCertSerial: string;
  merchantPrivateKey: KeyObject;
  merchantPublicKey: KeyObject;
  /** PEMs as an operator puts them in WECHATPAY_PRIVATE_KEY and WECHATPAY_PUBLIC_KEY / WECHATPAY_PLATFORM_CERT. */
  merchantPrivateKeyPem: string;
  wechatKeyPem: string;
  /** The Wechatpay-Serial WeChat signs under: PUB_KEY_ID_… or the platform certificate's serial. */
  wechatSerial: string;
  wechatPrivateKey: KeyObject;
  wechatPublicKey: KeyObject;
  /** The buyer whose WeChat the OAuth step comes back for. */
  openid: string;
};

/** Off the event loop: a blocked loop lets kept-alive sockets time out under a request that is about to use them. */
const rsaKeyPair = () => promisify(generateKeyPair)('rsa', { modulusLength: 2048 });

function pem(key: KeyObject): string {
  return key.export({ type: key.type === 'private' ? 'pkcs8' : 'spki', format: 'pem' }).toString();
}

/** Fresh keys for one test file: a merchant API key pair, WeChat's key (a bare public key or a certificate), an APIv3 key. */
export async function newWechatPayAccount(mode: WechatPayMode): Promise<WechatPayAccount> {
  const merchant = await rsaKeyPair();
  let wechatPrivateKey: KeyObject;
  let wechatKeyPem: string;
  let wechatSerial: string;
  if (mode === 'public-key') {
    const wechat = await rsaKeyPair();
    wechatPrivateKey = wechat.privateKey;
    wechatKeyPem = pem(wechat.publicKey);
    wechatSerial = `PUB_KEY_ID_0114232134912410000000000000${randomBytes(3).toString('hex').toUpperCase()}`;
  } else {
    const cert = await generate([{ name: 'commonName', value: 'Tenpay.com Root CA' }], {
      keySize: 2048,
      algorithm: 'sha256',
    });
    wechatPrivateKey = createPrivateKey(cert.private);
    wechatKeyPem = cert.cert;
    wechatSerial = new X509Certificate(cert.cert).serialNumber.toUpperCase();
  }
  return {
    mode,
    merchantId: '1900009191',
    appId: 'wxd678efh567hg6787',
    mpAppId: 'wx8888888888888888',
    mpAppSecret: randomBytes(16).toString('hex'),
    apiV3Key: randomBytes(16).toString('hex'),
    merchantCertSerial: randomBytes(20).toString('hex').toUpperCase(),
    merchantPrivateKey: merchant.privateKey,
    merchantPublicKey: merchant.publicKey,
    merchantPrivateKeyPem: pem(merchant.privateKey),
    wechatKeyPem,
    wechatSerial,
    wechatPrivateKey,
    wechatPublicKey: createPublicKey(wechatPrivateKey),
    openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o',
  };
}

/** The environment an operator would set for this account, pointing at the double at `url`. */
export function wechatPayEnv(account: WechatPayAccount, url: string): Record<string, string> {
  return {
    WECHATPAY_MCH_ID: account.merchantId,
    WECHATPAY_APP_ID: account.appId,
    WECHATPAY_MP_APP_ID: account.mpAppId,
    WECHATPAY_MP_APP_SECRET: account.mpAppSecret,
    WECHATPAY_API_V3_KEY: account.apiV3Key,
    WECHATPAY_PRIVATE_KEY: account.merchantPrivateKeyPem,
    WECHATPAY_CERT_SERIAL: account.merchantCertSerial,
    ...(account.mode === 'public-key'
      ? { WECHATPAY_PUBLIC_KEY: account.wechatKeyPem, WECHATPAY_PUBLIC_KEY_ID: account.wechatSerial }
      : { WECHATPAY_PLATFORM_CERT: account.wechatKeyPem }),
    WECHATPAY_BASE_URL: url,
    WECHATPAY_MP_API_BASE_URL: url,
    WECHATPAY_MP_AUTHORIZE_BASE_URL: url,
  };
}

type TradeType = 'NATIVE' | 'MWEB' | 'JSAPI';
type TradeState = 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'REFUND';
type RefundStatus = 'PROCESSING' | 'SUCCESS' | 'CLOSED' | 'ABNORMAL';

export type WechatTrade = {
  appid: string;
  mchid: string;
  outTradeNo: string;
  tradeType: TradeType;
  description: string;
  total: number;
  notifyUrl: string;
  timeExpire: Date;
  /** The order's body as first placed: the same out_trade_no again must carry the same. */
  placed: string;
  answer: Record<string, string>;
  state: TradeState;
  /** The trade as it stood when paid: what its notification (and every retry of it) carries. */
  paidView?: object;
  transactionId?: string;
  successTime?: string;
  openid?: string;
};

export type WechatRefund = {
  refundId: string;
  outRefundNo: string;
  outTradeNo: string;
  refund: number;
  total: number;
  reason?: string;
  notifyUrl?: string;
  status: RefundStatus;
  createTime: string;
  successTime?: string;
};

/** One notification the cashier sent, and how the merchant answered it. */
export type WechatDelivery = { url: string; eventType: string; status: number; body: string };

/** A notification as the merchant's server receives it. */
export type WechatNotice = { headers: Record<string, string>; rawBody: string };

export type WechatPayDouble = ProviderDouble<WechatPayAccount, { method: string; path: string; body: unknown }> & {
  /** The server's WeChat Pay settings for this account, pointing at the double. */
  config: WechatPayConfig;
  env: Record<string, string>;
  trades: Map<string, WechatTrade>;
  refunds: Map<string, WechatRefund>;
  deliveries: WechatDelivery[];
  /** The cashier: the buyer pays the trade (even one just closed, as when the buyer paid while we closed it). */
  pay(outTradeNo: string, options?: { afterClose?: boolean }): WechatTrade;
  /** The refund is done (SUCCESS), gave up (CLOSED) or stuck on the buyer's side (ABNORMAL). */
  settleRefund(outRefundNo: string, status?: Exclude<RefundStatus, 'PROCESSING'>): WechatRefund;
  /**
   * The signed notification the cashier sends for the trade's payment or the refund's outcome. `changes` replace
   * fields of the decrypted resource: a genuinely signed notification that does not fit the order (another app id
   * or merchant, another amount, an unpaid trade_state), which the order service must refuse.
   */
  tradeNotice(outTradeNo: string, changes?: Record<string, unknown>): WechatNotice;
  refundNotice(outRefundNo: string, changes?: Record<string, unknown>): WechatNotice;
  /** Any body signed with WeChat's key, as a notification's headers carry it. */
  signedNotice(rawBody: string): WechatNotice;
  /** POSTs a notification to its notify_url and records the answer. */
  deliver(url: string, notice: WechatNotice): Promise<WechatDelivery>;
  /** The next API answer's body is changed after signing (a forged or corrupted answer). */
  tamperNextAnswer(): void;
  /** What the next API call gets instead of its answer: a transport failure, or WeChat's error `{code, message}`. */
  failNext(failure: WechatPayFailure): void;
};

export type WechatPayFailure = TransportFailure | { status: number; code: string; message: string };

/** The H5 cashier's path at wx.tenpay.com. */
const H5_CASHIER_PATH = '/cgi-bin/mmpayweb-bin/checkmweb';

const html = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

/** RFC 3339 at Beijing time, as WeChat writes times. */
const beijing = (at: Date) => `${new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`;

class ApiRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function refuse(status: number, code: string, message: string): never {
  throw new ApiRefusal(status, code, message);
}

const sign = (message: string, key: KeyObject) => createSign('RSA-SHA256').update(message).sign(key, 'base64');

const AUTHORIZATION =
  /^WECHATPAY2-SHA256-RSA2048 mchid="([^"]*)",serial_no="([^"]*)",timestamp="(\d+)",nonce_str="([^"]*)",signature="([^"]*)"$/;

/** The request's signature, as WeChat checks it: 401 SIGN_ERROR when anything about it is off. */
function checkAuthorization(req: IncomingMessage, body: string, account: WechatPayAccount): void {
  const match = AUTHORIZATION.exec(header(req, 'authorization'));
  if (!match) refuse(401, 'SIGN_ERROR', 'Authorization 头格式错误');
  const [, mchid, serial, timestamp, nonce, signature] = match;
  if (mchid !== account.merchantId) refuse(401, 'SIGN_ERROR', '商户号与签名不匹配');
  if (serial !== account.merchantCertSerial) refuse(401, 'SIGN_ERROR', '商户证书序列号有误');
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) refuse(401, 'SIGN_ERROR', '签名时间戳已过期');
  const message = `${req.method}\n${req.url}\n${timestamp}\n${nonce}\n${body}\n`;
  const verified = createVerify('RSA-SHA256')
    .update(message)
    .verify(account.merchantPublicKey, signature ?? '', 'base64');
  if (!verified) refuse(401, 'SIGN_ERROR', '签名错误');
}

type Body = Record<string, unknown>;
/** WeChat's answer to a required field that is absent or of the wrong type. */
const missing = (name: string) =>
  refuse(400, 'PARAM_ERROR', `输入源"/body/${name}"映射到字段"${name}"必填性规则校验失败`);
const text = (body: Body, name: string): string => {
  const value = body[name];
  return typeof value === 'string' && value ? value : missing(name);
};
const object = (body: Body, name: string): Body => {
  const value = body[name];
  return value && typeof value === 'object' ? (value as Body) : missing(name);
};
const fen = (body: Body, name: string): number => {
  const value = body[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    return refuse(400, 'PARAM_ERROR', `字段"${name}"应为大于 0 的整数（分）`);
  }
  return value;
};

export async function startWechatPayDouble(account: WechatPayAccount): Promise<WechatPayDouble> {
  const requests: { method: string; path: string; body: unknown }[] = [];
  const rejections: string[] = [];
  const trades = new Map<string, WechatTrade>();
  const refunds = new Map<string, WechatRefund>();
  const deliveries: WechatDelivery[] = [];
  const oauthCodes = new Map<string, string>();
  /** Where h5_url points: this double's own address (known once it listens), standing in for wx.tenpay.com. */
  let cashierBase = '';
  const apiV3Key = createSecretKey(Buffer.from(account.apiV3Key));
  let tamperNext = false;
  const failures: WechatPayFailure[] = [];

  /** Headers that sign `body` as WeChat Pay signs its answers and notifications. */
  const signed = (body: string): Record<string, string> => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = randomBytes(16).toString('hex');
    return {
      'Wechatpay-Timestamp': timestamp,
      'Wechatpay-Nonce': nonce,
      'Wechatpay-Serial': account.wechatSerial,
      'Wechatpay-Signature': sign(`${timestamp}\n${nonce}\n${body}\n`, account.wechatPrivateKey),
      'Wechatpay-Signature-Type': 'WECHATPAY2-SHA256-RSA2048',
    };
  };

  const answer = (res: ServerResponse, status: number, data?: object) => {
    const body = data === undefined ? '' : JSON.stringify(data);
    const headers = { ...signed(body), 'Request-ID': randomUUID() };
    const sent = tamperNext && body ? body.replace(/[0-9]/, (d) => String((Number(d) + 1) % 10)) : body;
    tamperNext = false;
    res.writeHead(status, data === undefined ? headers : { ...headers, 'Content-Type': 'application/json' });
    res.end(sent);
  };

  /** A trade as query and notifications show it. */
  const transaction = (trade: WechatTrade) => {
    const paid = trade.state === 'SUCCESS' || trade.state === 'REFUND';
    return {
      appid: trade.appid,
      mchid: trade.mchid,
      out_trade_no: trade.outTradeNo,
      ...(paid ? { transaction_id: trade.transactionId } : {}),
      trade_type: trade.tradeType,
      trade_state: trade.state,
      trade_state_desc: { NOTPAY: '未支付', SUCCESS: '支付成功', CLOSED: '已关闭', REFUND: '转入退款' }[trade.state],
      ...(paid ? { bank_type: 'OTHERS', success_time: trade.successTime } : {}),
      attach: '',
      payer: paid ? { openid: trade.openid ?? account.openid } : {},
      amount: paid
        ? { total: trade.total, payer_total: trade.total, currency: 'CNY', payer_currency: 'CNY' }
        : { total: trade.total, currency: 'CNY', payer_currency: 'CNY' },
    };
  };

  const refundView = (refund: WechatRefund) => {
    const trade = trades.get(refund.outTradeNo)!;
    return {
      refund_id: refund.refundId,
      out_refund_no: refund.outRefundNo,
      transaction_id: trade.transactionId,
      out_trade_no: refund.outTradeNo,
      channel: 'ORIGINAL',
      user_received_account: '支付用户零钱',
      ...(refund.successTime ? { success_time: refund.successTime } : {}),
      create_time: refund.createTime,
      status: refund.status,
      funds_account: 'AVAILABLE',
      amount: {
        total: refund.total,
        refund: refund.refund,
        payer_total: refund.total,
        payer_refund: refund.refund,
        settlement_refund: refund.refund,
        settlement_total: refund.total,
        discount_refund: 0,
        currency: 'CNY',
        refund_fee: 0,
      },
    };
  };

  /** Unpaid trades past time_expire are closed by WeChat itself. */
  const current = (trade: WechatTrade) => {
    if (trade.state === 'NOTPAY' && trade.timeExpire.getTime() < Date.now()) trade.state = 'CLOSED';
    return trade;
  };

  const placeOrder = (tradeType: TradeType, body: Body) => {
    const appid = text(body, 'appid');
    const mchid = text(body, 'mchid');
    if (mchid !== account.merchantId) refuse(400, 'MCH_NOT_EXISTS', '商户号不存在');
    if (appid !== account.appId && appid !== account.mpAppId)
      refuse(400, 'APPID_MCHID_NOT_MATCH', 'appid和mch_id不匹配');
    if (tradeType === 'JSAPI' && appid !== account.mpAppId) {
      refuse(400, 'APPID_MCHID_NOT_MATCH', 'JSAPI 下单的 appid 须为 openid 所属的公众号');
    }
    const description = text(body, 'description');
    if (description.length > 127) refuse(400, 'PARAM_ERROR', '字段"description"长度超过 127');
    const outTradeNo = text(body, 'out_trade_no');
    if (!/^[0-9A-Za-z_\-|*]{6,32}$/.test(outTradeNo)) refuse(400, 'PARAM_ERROR', '字段"out_trade_no"格式错误');
    const notifyUrl = text(body, 'notify_url');
    if (!/^https?:\/\/[^?]+$/.test(notifyUrl)) refuse(400, 'PARAM_ERROR', 'notify_url 须为不带查询串的地址');
    const timeExpire = text(body, 'time_expire');
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/.test(timeExpire)) {
      refuse(400, 'PARAM_ERROR', '字段"time_expire"须为 RFC3339 格式');
    }
    const amount = object(body, 'amount');
    const total = fen(amount, 'total');
    if (amount.currency !== undefined && amount.currency !== 'CNY') refuse(400, 'PARAM_ERROR', '币种仅支持 CNY');
    if (tradeType === 'MWEB') {
      const scene = object(body, 'scene_info');
      text(scene, 'payer_client_ip');
      text(object(scene, 'h5_info'), 'type');
    }
    if (tradeType === 'JSAPI') text(object(body, 'payer'), 'openid');

    const placed = JSON.stringify({ tradeType, body });
    const known = trades.get(outTradeNo);
    if (known) {
      current(known);
      if (known.state === 'SUCCESS' || known.state === 'REFUND') refuse(400, 'ORDERPAID', '该订单已支付');
      if (known.state === 'CLOSED') refuse(400, 'ORDER_CLOSED', '订单已关闭');
      // Placing the same order again returns the same payment; anything different is refused.
      if (known.placed !== placed) refuse(400, 'INVALID_REQUEST', '201 商户订单号重复');
      return known.answer;
    }
    const prepayId = `wx${Date.now()}${randomBytes(8).toString('hex')}`;
    const answers: Record<TradeType, Record<string, string>> = {
      NATIVE: { code_url: `weixin://wxpay/bizpayurl?pr=${randomBytes(5).toString('hex')}` },
      MWEB: {
        h5_url: `${cashierBase}${H5_CASHIER_PATH}?prepay_id=${prepayId}&package=${randomBytes(5).readUInt32BE()}`,
      },
      JSAPI: { prepay_id: prepayId },
    };
    const payer = body.payer as Body | undefined;
    trades.set(outTradeNo, {
      appid,
      mchid,
      outTradeNo,
      tradeType,
      description,
      total,
      notifyUrl,
      timeExpire: new Date(timeExpire),
      placed,
      answer: answers[tradeType],
      state: 'NOTPAY',
      openid: typeof payer?.openid === 'string' ? payer.openid : undefined,
    });
    return answers[tradeType];
  };

  const refundTrade = (body: Body) => {
    const outTradeNo = text(body, 'out_trade_no');
    const outRefundNo = text(body, 'out_refund_no');
    const amount = object(body, 'amount');
    const refund = fen(amount, 'refund');
    const total = fen(amount, 'total');
    const known = refunds.get(outRefundNo);
    // The same out_refund_no again is the same refund (WeChat refunds it once).
    if (known) return refundView(known);
    const trade = trades.get(outTradeNo);
    if (!trade) return refuse(404, 'RESOURCE_NOT_EXISTS', '订单不存在');
    if (trade.state !== 'SUCCESS' && trade.state !== 'REFUND') refuse(400, 'INVALID_REQUEST', '订单未支付，不能退款');
    if (total !== trade.total) refuse(400, 'PARAM_ERROR', '订单金额与原订单不一致');
    const refunded = [...refunds.values()]
      .filter((r) => r.outTradeNo === outTradeNo && r.status !== 'CLOSED')
      .reduce((sum, r) => sum + r.refund, 0);
    if (refunded + refund > trade.total) refuse(400, 'INVALID_REQUEST', '申请退款金额超过订单可退金额');
    const created: WechatRefund = {
      refundId: `50000${Date.now()}${randomBytes(4).readUInt32BE()}`,
      outRefundNo,
      outTradeNo,
      refund,
      total,
      reason: typeof body.reason === 'string' ? body.reason : undefined,
      notifyUrl: typeof body.notify_url === 'string' ? body.notify_url : undefined,
      status: 'PROCESSING',
      createTime: beijing(new Date()),
    };
    refunds.set(outRefundNo, created);
    trade.state = 'REFUND';
    return refundView(created);
  };

  const api = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const url = new URL(req.url ?? '/', 'http://double');
    const path = url.pathname;
    const accept = header(req, 'accept');
    if (!accept.includes('application/json') && !accept.includes('*/*'))
      refuse(406, 'INVALID_REQUEST', 'Accept 须为 application/json');
    if (req.method === 'POST' && !header(req, 'content-type').startsWith('application/json')) {
      refuse(400, 'INVALID_REQUEST', 'Content-Type 须为 application/json');
    }
    checkAuthorization(req, raw, account);
    let body: Body = {};
    if (req.method === 'POST') {
      try {
        body = JSON.parse(raw) as Body;
      } catch {
        refuse(400, 'PARAM_ERROR', '请求体不是 JSON');
      }
    }
    requests.push({ method: req.method ?? '', path: req.url ?? '', body });

    const order = /^\/v3\/pay\/transactions\/(native|h5|jsapi)$/.exec(path);
    if (req.method === 'POST' && order) {
      const type = ({ native: 'NATIVE', h5: 'MWEB', jsapi: 'JSAPI' } as const)[order[1] as 'native' | 'h5' | 'jsapi'];
      return answer(res, 200, placeOrder(type, body));
    }
    const byOutTradeNo = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)(\/close)?$/.exec(path);
    if (byOutTradeNo) {
      const outTradeNo = decodeURIComponent(byOutTradeNo[1]!);
      const trade = trades.get(outTradeNo);
      if (req.method === 'GET' && !byOutTradeNo[2]) {
        if (url.searchParams.get('mchid') !== account.merchantId) refuse(400, 'PARAM_ERROR', 'mchid 与订单不符');
        if (!trade) return refuse(404, 'ORDER_NOT_EXIST', '订单不存在');
        return answer(res, 200, transaction(current(trade)));
      }
      if (req.method === 'POST' && byOutTradeNo[2]) {
        if (text(body, 'mchid') !== account.merchantId) refuse(400, 'MCH_NOT_EXISTS', '商户号不存在');
        if (!trade) return refuse(404, 'ORDER_NOT_EXIST', '订单不存在');
        if (trade.state === 'SUCCESS' || trade.state === 'REFUND') refuse(400, 'ORDERPAID', '该订单已支付');
        trade.state = 'CLOSED';
        return answer(res, 204);
      }
    }
    if (req.method === 'POST' && path === '/v3/refund/domestic/refunds') return answer(res, 200, refundTrade(body));
    const refundQuery = /^\/v3\/refund\/domestic\/refunds\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && refundQuery) {
      const refund = refunds.get(decodeURIComponent(refundQuery[1]!));
      if (!refund) return refuse(404, 'RESOURCE_NOT_EXISTS', '退款单不存在');
      return answer(res, 200, refundView(refund));
    }
    refuse(404, 'NOT_FOUND', `${req.method} ${path} 不存在`);
  };

  /** The official account's web authorisation: the WeChat browser comes back with a code, exchanged for the openid. */
  const oauth = (res: ServerResponse, url: URL) => {
    const json = (data: object) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(JSON.stringify(data));
    };
    const q = url.searchParams;
    if (url.pathname === '/connect/oauth2/authorize') {
      const redirect = q.get('redirect_uri');
      if (q.get('appid') !== account.mpAppId || !redirect || q.get('response_type') !== 'code') {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        return res.end('<html><body>Oops! Something went wrong:( 参数错误</body></html>');
      }
      const code = randomBytes(16).toString('hex');
      oauthCodes.set(code, account.openid);
      const back = new URL(redirect);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { Location: back.toString() });
      return res.end();
    }
    if (q.get('appid') !== account.mpAppId) return json({ errcode: 40013, errmsg: 'invalid appid' });
    if (q.get('secret') !== account.mpAppSecret) return json({ errcode: 40125, errmsg: 'invalid appsecret' });
    if (q.get('grant_type') !== 'authorization_code') return json({ errcode: 40002, errmsg: 'invalid grant_type' });
    const openid = oauthCodes.get(q.get('code') ?? '');
    if (!openid) return json({ errcode: 40029, errmsg: 'invalid code' });
    // A code is good once.
    oauthCodes.delete(q.get('code') ?? '');
    return json({
      access_token: randomBytes(24).toString('hex'),
      expires_in: 7200,
      refresh_token: randomBytes(24).toString('hex'),
      openid,
      scope: 'snsapi_base',
    });
  };

  /**
   * The H5 cashier h5_url leads to (wx.tenpay.com's checkmweb, served here): the trade's description and amount, and
   * the way back to redirect_url that WeChat offers once the buyer has paid in the WeChat app.
   */
  const h5Cashier = (res: ServerResponse, url: URL) => {
    const prepayId = url.searchParams.get('prepay_id') ?? '';
    const trade = [...trades.values()].find((t) => t.answer.h5_url?.includes(`prepay_id=${prepayId}&`));
    const back = url.searchParams.get('redirect_url') ?? '';
    if (!trade || !/^https?:\/\//.test(back)) {
      res.writeHead(400, { 'Content-Type': 'text/html; charset=utf-8' });
      return res.end('<p>商家参数格式有误，请联系商家解决</p>');
    }
    const yuan = `¥${(trade.total / 100).toFixed(2)}`;
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    return res.end(
      `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
        `<title>微信支付</title></head><body><h1>微信支付</h1><p>${html(trade.description)}</p><p>${yuan}</p>` +
        `<p>订单号 ${html(trade.outTradeNo)}</p><a href="${html(back)}">已完成支付，返回商家</a></body></html>`,
    );
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://double');
    if (req.method === 'GET' && url.pathname === H5_CASHIER_PATH) {
      h5Cashier(res, url);
      return;
    }
    if (
      req.method === 'GET' &&
      (url.pathname === '/connect/oauth2/authorize' || url.pathname === '/sns/oauth2/access_token')
    ) {
      oauth(res, url);
      return;
    }
    const failure = failures.shift();
    if (playTransportFailure(req, res, failure)) return;
    if (failure) {
      answer(res, failure.status, { code: failure.code, message: failure.message });
      return;
    }
    try {
      api(req, res, raw.toString('utf8'));
    } catch (err) {
      if (!(err instanceof ApiRefusal)) throw err;
      rejections.push(`${err.code}: ${err.message}`);
      answer(res, err.status, { code: err.code, message: err.message });
    }
  };

  /** A notification of `eventType` with `resource` encrypted as WeChat does: AEAD_AES_256_GCM under the APIv3 key. */
  const notice = (eventType: string, summary: string, originalType: string, resource: object): WechatNotice => {
    const nonce = randomBytes(6).toString('hex');
    const associatedData = originalType;
    const cipher = createCipheriv('aes-256-gcm', apiV3Key, nonce).setAAD(Buffer.from(associatedData));
    const ciphertext = Buffer.concat([
      cipher.update(JSON.stringify(resource), 'utf8'),
      cipher.final(),
      cipher.getAuthTag(),
    ]).toString('base64');
    const rawBody = JSON.stringify({
      id: randomUUID(),
      create_time: beijing(new Date()),
      resource_type: 'encrypt-resource',
      event_type: eventType,
      summary,
      resource: {
        original_type: originalType,
        algorithm: 'AEAD_AES_256_GCM',
        ciphertext,
        associated_data: associatedData,
        nonce,
      },
    });
    return { headers: { 'Content-Type': 'application/json', ...signed(rawBody) }, rawBody };
  };

  const server = await startProviderServer(handle);
  cashierBase = server.url;
  const env = wechatPayEnv(account, server.url);

  const tradeOf = (outTradeNo: string) => {
    const trade = trades.get(outTradeNo);
    if (!trade) throw new Error(`the double has no trade ${outTradeNo}`);
    return trade;
  };
  const refundOf = (outRefundNo: string) => {
    const refund = refunds.get(outRefundNo);
    if (!refund) throw new Error(`the double has no refund ${outRefundNo}`);
    return refund;
  };

  return {
    ...server,
    account,
    config: loadWechatPayConfig(env)!,
    env,
    requests,
    rejections,
    trades,
    refunds,
    deliveries,
    pay(outTradeNo, options = {}) {
      const trade = current(tradeOf(outTradeNo));
      if (trade.state !== 'NOTPAY' && !(options.afterClose && trade.state === 'CLOSED')) {
        throw new Error(`trade ${outTradeNo} is ${trade.state}: the cashier cannot take it`);
      }
      trade.state = 'SUCCESS';
      trade.transactionId = `4200${Date.now()}${randomBytes(4).readUInt32BE()}`.slice(0, 28);
      trade.successTime = beijing(new Date());
      trade.paidView = transaction(trade);
      return trade;
    },
    settleRefund(outRefundNo, status = 'SUCCESS') {
      const refund = refundOf(outRefundNo);
      refund.status = status;
      if (status === 'SUCCESS') refund.successTime = beijing(new Date());
      return refund;
    },
    tradeNotice(outTradeNo, changes) {
      const trade = tradeOf(outTradeNo);
      if (!trade.paidView && !changes)
        throw new Error(`trade ${outTradeNo} is not paid: WeChat notifies payments only`);
      return notice('TRANSACTION.SUCCESS', '支付成功', 'transaction', {
        ...(trade.paidView ?? transaction(trade)),
        ...changes,
      });
    },
    refundNotice(outRefundNo, changes) {
      const refund = refundOf(outRefundNo);
      if (refund.status === 'PROCESSING') throw new Error(`refund ${outRefundNo} is still PROCESSING`);
      const trade = tradeOf(refund.outTradeNo);
      return notice(
        `REFUND.${refund.status}`,
        { SUCCESS: '退款成功', CLOSED: '退款关闭', ABNORMAL: '退款异常' }[refund.status],
        'refund',
        {
          mchid: account.merchantId,
          transaction_id: trade.transactionId,
          out_trade_no: refund.outTradeNo,
          refund_id: refund.refundId,
          out_refund_no: refund.outRefundNo,
          refund_status: refund.status,
          ...(refund.successTime ? { success_time: refund.successTime } : {}),
          user_received_account: '支付用户零钱',
          amount: {
            total: refund.total,
            refund: refund.refund,
            payer_total: refund.total,
            payer_refund: refund.refund,
          },
          ...changes,
        },
      );
    },
    signedNotice: (rawBody) => ({ headers: { 'Content-Type': 'application/json', ...signed(rawBody) }, rawBody }),
    async deliver(url, sent) {
      const reply = await fetch(url, { method: 'POST', headers: sent.headers, body: sent.rawBody });
      const delivery = {
        url,
        eventType: (JSON.parse(sent.rawBody) as { event_type: string }).event_type,
        status: reply.status,
        body: await reply.text(),
      };
      deliveries.push(delivery);
      return delivery;
    },
    tamperNextAnswer() {
      tamperNext = true;
    },
    failNext(failure) {
      failures.push(failure);
    },
  };
}
