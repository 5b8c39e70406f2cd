import { createSign, createVerify, generateKeyPairSync, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AlipayConfig } from '../../src/config.js';

/**
 * Alipay's open platform gateway (gateway.do) as its documents describe it, for the real alipay-sdk to talk to:
 * requests are checked against the app's public key (RSA2), answers and notifications are signed with a key of
 * "Alipay" the tests generate. Covers alipay.trade.page.pay / wap.pay (the cashier, opened by GET), trade.query,
 * trade.close, trade.refund and trade.fastpay.refund.query; `pay` is the buyer paying at the cashier, after which
 * the signed asynchronous notification goes to the notify_url the payment named.
 */

type Trade = {
  outTradeNo: string;
  totalAmount: string;
  subject: string;
  status: 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED';
  tradeNo: string;
  notifyUrl: string;
  gmtCreate: string;
  gmtPayment?: string;
  refunds: Map<string, string>;
};

const pem = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });

function beijingNow(): string {
  return new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** Alipay's content to sign: every parameter but the excluded ones, sorted, key=value joined with &. */
export function signContent(fields: Record<string, string>, exclude: string[]): string {
  return Object.keys(fields)
    .filter((key) => !exclude.includes(key) && fields[key] !== '')
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('&');
}

const fenOf = (yuan: string) => Math.round(Number(yuan) * 100);
const yuanOf = (fen: number) => (fen / 100).toFixed(2);

export class AlipayDouble {
  readonly appId = '2021000000000001';
  readonly sellerId = '2088000000000001';
  readonly app = pem();
  readonly alipay = pem();
  readonly trades = new Map<string, Trade>();
  /** Every API call the gateway answered, by method (tests count closes and queries). */
  readonly calls: { method: string; biz: Record<string, string> }[] = [];
  private readonly holds = new Map<string, { arrived: number; released: Promise<void> }>();
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Our app's configuration, in public-key mode, pointed at this gateway. */
  config(): AlipayConfig {
    return {
      appId: this.appId,
      privateKey: this.app.privateKey,
      sellerId: this.sellerId,
      gateway: `${this.url}/gateway.do`,
      keys: { mode: 'key', alipayPublicKey: this.alipay.publicKey },
    };
  }

  /** The same configuration as a server process reads it from its environment (docs/payments.md § 支付宝). */
  environment(publicBaseUrl: string): Record<string, string> {
    const config = this.config();
    return {
      ALIPAY_APP_ID: config.appId,
      ALIPAY_PRIVATE_KEY: config.privateKey,
      ALIPAY_SELLER_ID: this.sellerId,
      ALIPAY_GATEWAY: config.gateway,
      PUBLIC_BASE_URL: publicBaseUrl,
      ...(config.keys.mode === 'key'
        ? { ALIPAY_PUBLIC_KEY: config.keys.alipayPublicKey }
        : {
            ALIPAY_APP_CERT: config.keys.appCert,
            ALIPAY_ROOT_CERT: config.keys.rootCert,
            ALIPAY_PUBLIC_CERT: config.keys.publicCert,
          }),
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const fields: Record<string, string> = Object.fromEntries(url.searchParams);
    for (const [key, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) fields[key] = value;
    const method = fields.method ?? '';
    const verified = createVerify('RSA-SHA256')
      .update(signContent(fields, ['sign']), 'utf8')
      .verify(this.app.publicKey, fields.sign ?? '', 'base64');
    if (req.method === 'GET') {
      // The cashier page a buyer's browser opens.
      if (!verified || fields.app_id !== this.appId) {
        res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' }).end('<p>验签出错</p>');
        return;
      }
      const biz = JSON.parse(fields.biz_content ?? '{}') as Record<string, string>;
      const outTradeNo = biz.out_trade_no ?? '';
      if (!this.trades.has(outTradeNo)) {
        this.trades.set(outTradeNo, {
          outTradeNo,
          totalAmount: biz.total_amount ?? '0',
          subject: biz.subject ?? '',
          status: 'WAIT_BUYER_PAY',
          tradeNo: `2026${Date.now()}${randomInt(1000, 9999)}`,
          notifyUrl: fields.notify_url ?? '',
          gmtCreate: beijingNow(),
          refunds: new Map(),
        });
      }
      this.calls.push({ method, biz });
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<h1>支付宝收银台</h1><p>${biz.subject}</p>`);
      return;
    }
    const key = `${method.replaceAll('.', '_')}_response`;
    if (!verified) {
      this.answer(res, key, {
        code: '40002',
        msg: 'Invalid Arguments',
        sub_code: 'isv.invalid-signature',
        sub_msg: '验签出错',
      });
      return;
    }
    const biz = JSON.parse(fields.biz_content ?? '{}') as Record<string, string>;
    this.calls.push({ method, biz });
    const hold = method === 'alipay.trade.query' ? this.holds.get(biz.out_trade_no ?? '') : undefined;
    if (hold) {
      hold.arrived += 1;
      await hold.released;
    }
    this.answer(res, key, this.api(method, biz));
  }

  /**
   * Holds back the answers to alipay.trade.query for one trade until `release`, so queries that come from several
   * processes at different moments are answered, and settle, at the same moment. `arrived` counts those waiting.
   */
  holdQueries(outTradeNo: string): { arrived(): number; release(): void } {
    let resolve: () => void = () => undefined;
    const hold = { arrived: 0, released: new Promise<void>((done) => (resolve = done)) };
    this.holds.set(outTradeNo, hold);
    return {
      arrived: () => hold.arrived,
      release: () => {
        this.holds.delete(outTradeNo);
        resolve();
      },
    };
  }

  private api(method: string, biz: Record<string, string>): Record<string, unknown> {
    const notExist = { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_NOT_EXIST', sub_msg: '交易不存在' };
    const trade = this.trades.get(biz.out_trade_no ?? '');
    const ok = { code: '10000', msg: 'Success' };
    switch (method) {
      case 'alipay.trade.query':
        if (!trade) return notExist;
        return {
          ...ok,
          out_trade_no: trade.outTradeNo,
          trade_no: trade.tradeNo,
          trade_status: trade.status,
          total_amount: trade.totalAmount,
          buyer_logon_id: 'buy***@example.com',
          ...(trade.gmtPayment ? { send_pay_date: trade.gmtPayment } : {}),
        };
      case 'alipay.trade.close':
        if (!trade) return notExist;
        if (trade.status !== 'WAIT_BUYER_PAY') {
          return {
            code: '40004',
            msg: 'Business Failed',
            sub_code: 'ACQ.TRADE_STATUS_ERROR',
            sub_msg: '交易状态不合法',
          };
        }
        trade.status = 'TRADE_CLOSED';
        return { ...ok, out_trade_no: trade.outTradeNo, trade_no: trade.tradeNo };
      case 'alipay.trade.refund': {
        if (!trade) return notExist;
        if (trade.status === 'WAIT_BUYER_PAY') {
          return {
            code: '40004',
            msg: 'Business Failed',
            sub_code: 'ACQ.TRADE_STATUS_ERROR',
            sub_msg: '交易状态不合法',
          };
        }
        const requestNo = biz.out_request_no ?? '';
        const again = trade.refunds.has(requestNo);
        if (!again) trade.refunds.set(requestNo, biz.refund_amount ?? '0');
        const refunded = [...trade.refunds.values()].reduce((sum, yuan) => sum + fenOf(yuan), 0);
        if (refunded >= fenOf(trade.totalAmount)) trade.status = 'TRADE_CLOSED';
        return {
          ...ok,
          out_trade_no: trade.outTradeNo,
          trade_no: trade.tradeNo,
          refund_fee: yuanOf(refunded),
          fund_change: again ? 'N' : 'Y',
        };
      }
      case 'alipay.trade.fastpay.refund.query': {
        const amount = trade?.refunds.get(biz.out_request_no ?? '');
        if (!trade || amount === undefined) return ok;
        return {
          ...ok,
          out_trade_no: trade.outTradeNo,
          trade_no: trade.tradeNo,
          out_request_no: biz.out_request_no,
          total_amount: trade.totalAmount,
          refund_amount: amount,
          refund_status: 'REFUND_SUCCESS',
        };
      }
      default:
        return { code: '40004', msg: 'Business Failed', sub_code: 'isv.invalid-method', sub_msg: '不存在的方法名' };
    }
  }

  /** A gateway answer as Alipay sends it: the method's object and a signature over its exact JSON text. */
  private answer(res: ServerResponse, key: string, body: Record<string, unknown>): void {
    const inner = JSON.stringify(body);
    const sign = createSign('RSA-SHA256').update(inner, 'utf8').sign(this.alipay.privateKey, 'base64');
    res
      .writeHead(200, { 'content-type': 'application/json;charset=utf-8' })
      .end(`{"${key}":${inner},"sign":"${sign}"}`);
  }

  /** A notification body (form) signed as Alipay signs it: all fields but sign and sign_type, with its key. */
  signNotice(fields: Record<string, string>, key = this.alipay.privateKey): string {
    const all = { ...fields, sign_type: 'RSA2' };
    const sign = createSign('RSA-SHA256')
      .update(signContent(all, ['sign', 'sign_type']), 'utf8')
      .sign(key, 'base64');
    return new URLSearchParams({ ...all, sign }).toString();
  }

  /** The trade_status_sync notification of a trade as it stands. */
  tradeNotice(outTradeNo: string, overrides: Record<string, string> = {}): string {
    const trade = this.trades.get(outTradeNo);
    if (!trade) throw new Error(`no trade ${outTradeNo} at the Alipay double`);
    return this.signNotice({
      notify_time: beijingNow(),
      notify_type: 'trade_status_sync',
      notify_id: `ntf${randomInt(1_000_000, 9_999_999)}`,
      app_id: this.appId,
      charset: 'utf-8',
      version: '1.0',
      trade_no: trade.tradeNo,
      out_trade_no: trade.outTradeNo,
      seller_id: this.sellerId,
      total_amount: trade.totalAmount,
      receipt_amount: trade.totalAmount,
      trade_status: trade.status,
      subject: trade.subject,
      gmt_create: trade.gmtCreate,
      ...(trade.gmtPayment ? { gmt_payment: trade.gmtPayment } : {}),
      ...overrides,
    });
  }

  /** The refund's notification (trade_status_sync with out_biz_no and the refunded total). */
  refundNotice(outTradeNo: string, outRequestNo: string): string {
    const trade = this.trades.get(outTradeNo);
    if (!trade) throw new Error(`no trade ${outTradeNo} at the Alipay double`);
    const refunded = [...trade.refunds.values()].reduce((sum, yuan) => sum + fenOf(yuan), 0);
    return this.tradeNotice(outTradeNo, {
      out_biz_no: outRequestNo,
      refund_fee: yuanOf(refunded),
      gmt_refund: `${beijingNow()}.000`,
    });
  }

  /**
   * The buyer pays at the cashier: the trade turns TRADE_SUCCESS and, unless `deliver` is false (a notification
   * lost on the way), its signed notification is POSTed to the notify_url. Answers the notification's body.
   */
  async pay(outTradeNo: string, { deliver = true }: { deliver?: boolean } = {}): Promise<string> {
    const trade = this.trades.get(outTradeNo);
    if (!trade) throw new Error(`no trade ${outTradeNo} at the Alipay double (was the cashier opened?)`);
    if (trade.status !== 'WAIT_BUYER_PAY') throw new Error(`trade ${outTradeNo} is ${trade.status}`);
    trade.status = 'TRADE_SUCCESS';
    trade.gmtPayment = beijingNow();
    const body = this.tradeNotice(outTradeNo);
    if (deliver) await this.deliver(trade.notifyUrl, body);
    return body;
  }

  /** POSTs a notification to our notify address as Alipay does; answers what we replied. */
  async deliver(notifyUrl: string, body: string): Promise<string> {
    const res = await fetch(notifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body,
    });
    return res.text();
  }

  notifyUrlOf(outTradeNo: string): string {
    const trade = this.trades.get(outTradeNo);
    if (!trade) throw new Error(`no trade ${outTradeNo} at the Alipay double`);
    return trade.notifyUrl;
  }
}
