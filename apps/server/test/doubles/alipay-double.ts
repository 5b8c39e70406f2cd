import { createHash, createSign, createVerify, generateKeyPairSync, randomInt, X509Certificate } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import type { AlipayConfig } from '../../src/config.js';

/**
 * Alipay's open platform gateway (gateway.do) as its documents describe it, for the real alipay-sdk to talk to:
 * requests are checked against the app's public key (RSA2), answers and notifications are signed with a key of
 * "Alipay" the tests generate. Covers alipay.trade.page.pay / wap.pay (the cashier, opened by GET), trade.query,
 * trade.close, trade.refund and trade.fastpay.refund.query; `pay` is the buyer paying at the cashier, after which
 * the signed asynchronous notification goes to the notify_url the payment named.
 *
 * Two modes, as an app's 接口加签方式 on the open platform: public keys (`key`), or certificates (`cert`, 公钥证书模式):
 * then the double issues a root bundle, the app's certificate and Alipay's certificate, requires every request to
 * name the app's certificate and the root by their SNs (app_cert_sn, alipay_root_cert_sn), and names its own
 * certificate in every answer (alipay_cert_sn beside the signature).
 */

export type AlipayKeyMode = 'key' | 'cert';

/** 公钥证书模式: what the open platform hands out (PEM), and the SNs Alipay knows them by. */
export type AlipayCerts = {
  /** alipayRootCert.crt: several roots; only the RSA ones count towards its SN. */
  root: string;
  /** alipayCertPublicKey_RSA2.crt: Alipay's public key, signed by the root. */
  alipay: string;
  /** appCertPublicKey_<appId>.crt: the app's public key, signed by the root. */
  app: string;
  rootSn: string;
  alipaySn: string;
  appSn: string;
};

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

type KeyPair = { publicKey: string; privateKey: string };

const pem = (): KeyPair =>
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

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * Alipay's SN of a certificate: the MD5 (hex) of its issuer's name, written most specific attribute first
 * (CN=…,OU=…,O=…,C=…, as Java's X500Principal.getName writes it), followed by its serial number in decimal.
 */
function certSn(pem: string): string {
  const cert = new X509Certificate(pem);
  const issuer = cert.issuer.split('\n').reverse().join(',');
  return createHash('md5')
    .update(issuer + BigInt(`0x${cert.serialNumber}`).toString(10), 'utf8')
    .digest('hex');
}

/**
 * The root bundle's SN: the SNs of its RSA roots joined with "_"; its ECC (and SM2) roots are left out. A root signs
 * itself, so its key's type is its signature's.
 */
function rootCertSn(bundle: string): string {
  return (bundle.match(PEM_CERTIFICATE) ?? [])
    .filter((pem) => new X509Certificate(pem).publicKey.asymmetricKeyType === 'rsa')
    .map(certSn)
    .join('_');
}

const CA_EXTENSIONS = [
  { name: 'basicConstraints' as const, cA: true, critical: true },
  { name: 'keyUsage' as const, keyCertSign: true, cRLSign: true, critical: true },
];

/** A root bundle like alipayRootCert.crt (an RSA root and an ECC one), and the two certificates its RSA root signs. */
async function issueCerts(app: KeyPair, alipay: KeyPair, appId: string): Promise<AlipayCerts> {
  const caKeys = pem();
  const dn = (cn: string) => [
    { name: 'countryName', value: 'CN' },
    { name: 'organizationName', value: 'Ant Financial' },
    { name: 'OU', value: 'Certification Authority' },
    { name: 'commonName', value: cn },
  ];
  const rsaRoot = await generate(dn('Ant Financial Certification Authority R1'), {
    algorithm: 'sha256',
    keyPair: caKeys,
    extensions: CA_EXTENSIONS,
  });
  const eccRoot = await generate(dn('Ant Financial Certification Authority E1'), {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: CA_EXTENSIONS,
  });
  const leaf = (keys: KeyPair, subject: { name: string; value: string }[]) =>
    generate(subject, {
      algorithm: 'sha256',
      keyPair: keys,
      ca: { key: caKeys.privateKey, cert: rsaRoot.cert },
      extensions: [{ name: 'keyUsage', digitalSignature: true, critical: true }],
    });
  const appCert = await leaf(app, [
    { name: 'countryName', value: 'CN' },
    { name: 'organizationName', value: 'Huafang Test Co' },
    { name: 'OU', value: 'Alipay' },
    { name: 'commonName', value: appId },
  ]);
  const alipayCert = await leaf(alipay, [
    { name: 'countryName', value: 'CN' },
    { name: 'organizationName', value: 'Alipay Double' },
    { name: 'OU', value: 'Alipay' },
    { name: 'commonName', value: 'Alipay Double RSA2' },
  ]);
  const root = `${rsaRoot.cert.trim()}\n${eccRoot.cert.trim()}\n`;
  return {
    root,
    alipay: alipayCert.cert,
    app: appCert.cert,
    rootSn: rootCertSn(root),
    alipaySn: certSn(alipayCert.cert),
    appSn: certSn(appCert.cert),
  };
}

const fenOf = (yuan: string) => Math.round(Number(yuan) * 100);
const yuanOf = (fen: number) => (fen / 100).toFixed(2);

export class AlipayDouble {
  readonly appId = '2021000000000001';
  readonly sellerId = '2088000000000001';
  readonly app = pem();
  readonly alipay = pem();
  readonly trades = new Map<string, Trade>();
  /** The key the gateway's answers are signed with: Alipay's, unless a test forges them. */
  answerKey = this.alipay.privateKey;
  /** Every API call the gateway answered, by method (tests count closes and queries). */
  readonly calls: { method: string; biz: Record<string, string> }[] = [];
  private readonly holds = new Map<string, { arrived: number; released: Promise<void> }>();
  private server: Server | undefined;
  url = '';
  /** Set by `start` in certificate mode. */
  certs: AlipayCerts | undefined;

  constructor(readonly mode: AlipayKeyMode = 'key') {}

  async start(): Promise<this> {
    if (this.mode === 'cert') this.certs = await issueCerts(this.app, this.alipay, this.appId);
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

  /** Our app's configuration, in the double's mode, pointed at this gateway. */
  config(): AlipayConfig {
    return {
      appId: this.appId,
      privateKey: this.app.privateKey,
      sellerId: this.sellerId,
      gateway: `${this.url}/gateway.do`,
      keys: this.certs
        ? { mode: 'cert', appCert: this.certs.app, rootCert: this.certs.root, publicCert: this.certs.alipay }
        : { mode: 'key', alipayPublicKey: this.alipay.publicKey },
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
    const refused = this.refusal(fields);
    if (req.method === 'GET') {
      // The cashier page a buyer's browser opens.
      if (refused || fields.app_id !== this.appId) {
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
    if (refused) {
      this.answer(res, key, { code: '40002', msg: 'Invalid Arguments', ...refused });
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
   * Why the gateway refuses a request before looking at its method, or null. In certificate mode the request must
   * name the app's certificate and Alipay's root by their SNs (both signed with the rest), and its signature is
   * checked against the public key of the app's certificate.
   */
  private refusal(fields: Record<string, string>): { sub_code: string; sub_msg: string } | null {
    let appPublicKey = this.app.publicKey;
    if (this.certs) {
      if (!fields.app_cert_sn) return { sub_code: 'isv.missing-app-cert-sn', sub_msg: '缺少应用公钥证书序列号' };
      if (!fields.alipay_root_cert_sn) {
        return { sub_code: 'isv.missing-alipay-root-cert-sn', sub_msg: '缺少支付宝根证书序列号' };
      }
      if (fields.app_cert_sn !== this.certs.appSn) {
        return { sub_code: 'isv.app-cert-not-exist', sub_msg: '应用公钥证书不存在' };
      }
      if (fields.alipay_root_cert_sn !== this.certs.rootSn) {
        return { sub_code: 'isv.invalid-alipay-root-cert-sn', sub_msg: '无效的支付宝根证书序列号' };
      }
      appPublicKey = new X509Certificate(this.certs.app).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    }
    const verified = createVerify('RSA-SHA256')
      .update(signContent(fields, ['sign']), 'utf8')
      .verify(appPublicKey, fields.sign ?? '', 'base64');
    return verified ? null : { sub_code: 'isv.invalid-signature', sub_msg: '验签出错' };
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

  /**
   * A gateway answer as Alipay sends it: the method's object and a signature over its exact JSON text; in
   * certificate mode the SN of the certificate whose key signed it (alipay_cert_sn) stands between the two.
   */
  private answer(res: ServerResponse, key: string, body: Record<string, unknown>): void {
    const inner = JSON.stringify(body);
    const sign = createSign('RSA-SHA256').update(inner, 'utf8').sign(this.answerKey, 'base64');
    const certSnField = this.certs ? `"alipay_cert_sn":"${this.certs.alipaySn}",` : '';
    res
      .writeHead(200, { 'content-type': 'application/json;charset=utf-8' })
      .end(`{"${key}":${inner},${certSnField}"sign":"${sign}"}`);
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
