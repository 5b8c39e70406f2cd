import { createVerify } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChannelNotice, InvalidNotice, type PayRequest } from '../../src/features/payments/payment-channel.js';
import { WechatPayChannel, WechatPayError } from '../../src/features/payments/wechatpay-channel.js';
import { loadWechatPayConfig } from '../../src/features/payments/wechatpay-config.js';
import {
  openidForCode,
  snsapiBaseAuthorizeUrl,
  WechatOAuthError,
} from '../../src/features/payments/wechatpay-oauth.js';
import { startProviderServer } from '../doubles/provider-double.js';
import {
  newWechatPayAccount,
  startWechatPayDouble,
  type WechatNotice,
  type WechatPayAccount,
  type WechatPayDouble,
  type WechatPayMode,
  wechatPayEnv,
} from '../doubles/wechatpay-double.js';

/**
 * The WeChat Pay channel through the real SDK (wechatpay-axios-plugin) and real HTTP, against the API v3 double with
 * keys made here: orders on each device, notifications in both signing modes, query, close, refund.
 */

let sequence = 0;
const orderNo = () => `HF${Date.now()}${++sequence}`;

const payRequest = (overrides: Partial<PayRequest> = {}): PayRequest => ({
  outTradeNo: orderNo(),
  amountFen: 1990,
  subject: '画坊 进阶套餐',
  expiresAt: new Date(Date.now() + 15 * 60_000),
  device: 'desktop',
  clientIp: '203.0.113.9',
  returnUrl: 'https://huafang.example.com/store/result?order=1',
  ...overrides,
});

/** The merchant's notify route: verifies with the channel and answers as the channel says, like the real route. */
async function startNotifyReceiver(channel: () => WechatPayChannel) {
  const received: ChannelNotice[] = [];
  const refused: string[] = [];
  const server = await startProviderServer(async (req, res, body) => {
    let accepted = true;
    try {
      received.push(await channel().verifyNotice({ headers: req.headers, rawBody: body.toString('utf8') }));
    } catch (err) {
      if (!(err instanceof InvalidNotice)) throw err;
      refused.push(err.message);
      accepted = false;
    }
    const answer = channel().noticeAnswer(accepted);
    res.writeHead(answer.status, { 'content-type': answer.contentType });
    res.end(answer.body);
  });
  return { server, received, refused, url: `${server.url}/api/payments/notify/wechat` };
}

const secretsOf = (wechat: WechatPayDouble) => [
  wechat.account.apiV3Key,
  wechat.account.mpAppSecret,
  // A line from the middle of the private key's PEM.
  wechat.account.merchantPrivateKeyPem.split('\n')[5]!,
];

for (const mode of ['public-key', 'platform-cert'] as WechatPayMode[]) {
  describe(`WeChat Pay notifications (${mode} mode)`, () => {
    let wechat: WechatPayDouble;
    let receiver: Awaited<ReturnType<typeof startNotifyReceiver>>;
    let channel: WechatPayChannel;

    beforeAll(async () => {
      wechat = await startWechatPayDouble(await newWechatPayAccount(mode));
      receiver = await startNotifyReceiver(() => channel);
      channel = new WechatPayChannel(wechat.config, receiver.url);
    });
    afterAll(async () => {
      await wechat.close();
      await receiver.server.close();
    });

    it('a paid trade’s notification verifies and decrypts to the amount, app id and merchant the order is matched on', async () => {
      const request = payRequest();
      await channel.pay(request);
      const paid = wechat.pay(request.outTradeNo);
      const delivery = await wechat.deliver(paid.notifyUrl, wechat.tradeNotice(request.outTradeNo));

      expect(paid.notifyUrl).toBe(receiver.url);
      expect(delivery).toMatchObject({ eventType: 'TRANSACTION.SUCCESS', status: 204, body: '' });
      expect(receiver.received.at(-1)).toMatchObject({
        kind: 'trade',
        trade: {
          outTradeNo: request.outTradeNo,
          state: 'paid',
          tradeNo: paid.transactionId,
          amountFen: 1990,
          appId: wechat.account.appId,
          merchantId: wechat.account.merchantId,
          paidAt: expect.any(Date),
        },
      });
      expect(wechat.rejections).toEqual([]);
    });

    it('an answer signed under this mode’s serial verifies in the SDK (a query reads the paid trade)', async () => {
      const request = payRequest();
      await channel.pay(request);
      wechat.pay(request.outTradeNo);
      expect(await channel.query(request.outTradeNo)).toMatchObject({ state: 'paid', amountFen: 1990 });
    });

    it('refuses a bad signature, an unknown serial, a tampered ciphertext, an old timestamp and WeChat’s probe', async () => {
      const request = payRequest();
      await channel.pay(request);
      wechat.pay(request.outTradeNo);
      const genuine = wechat.tradeNotice(request.outTradeNo);
      const altered = (change: (notice: WechatNotice) => void) => {
        const copy = { headers: { ...genuine.headers }, rawBody: genuine.rawBody };
        change(copy);
        return copy;
      };
      const body = JSON.parse(genuine.rawBody) as { resource: { ciphertext: string } };
      const flipped = Buffer.from(body.resource.ciphertext, 'base64');
      flipped[0]! ^= 1;
      const forgeries = {
        signature: altered((n) => {
          n.headers['Wechatpay-Signature'] = wechat.tradeNotice(request.outTradeNo).headers['Wechatpay-Signature']!;
        }),
        serial: altered((n) => {
          n.headers['Wechatpay-Serial'] =
            mode === 'public-key' ? 'PUB_KEY_ID_0000000000000000' : '5157F09EFDC096DE15EBE81A';
        }),
        body: altered((n) => {
          n.rawBody = n.rawBody.replace('"TRANSACTION.SUCCESS"', '"TRANSACTION.SUCCESS" ');
        }),
        timestamp: altered((n) => {
          n.headers['Wechatpay-Timestamp'] = String(Math.floor(Date.now() / 1000) - 3600);
        }),
        probe: altered((n) => {
          n.headers['Wechatpay-Signature'] = `WECHATPAY/SIGNTEST/${n.headers['Wechatpay-Signature']}`;
        }),
      };
      for (const [name, forged] of Object.entries(forgeries)) {
        const delivery = await wechat.deliver(receiver.url, forged);
        expect(delivery.status, name).toBe(400);
        expect(JSON.parse(delivery.body), name).toEqual({ code: 'FAIL', message: '失败' });
      }

      // Re-signed by WeChat's key, but the ciphertext was altered on the way: AES-GCM's tag refuses it.
      const tampered = { ...body, resource: { ...body.resource, ciphertext: flipped.toString('base64') } };
      const rawBody = JSON.stringify(tampered);
      await expect(channel.verifyNotice(wechat.signedNotice(rawBody))).rejects.toThrow(
        'resource does not decrypt with the APIv3 key',
      );
      expect(receiver.refused).toHaveLength(Object.keys(forgeries).length);
    });

    it('a signed notification that does not fit the order decodes as it is, for the order service to refuse', async () => {
      const request = payRequest();
      await channel.pay(request);
      await wechat.deliver(receiver.url, wechat.tradeNotice(request.outTradeNo, { trade_state: 'NOTPAY' }));
      expect(receiver.received.at(-1)).toMatchObject({ kind: 'trade', trade: { state: 'pending' } });

      wechat.pay(request.outTradeNo);
      const amount = { total: 1, payer_total: 1, currency: 'CNY', payer_currency: 'CNY' };
      const changes = { amount, appid: 'wx0000000000000000', mchid: '1900000000' };
      await wechat.deliver(receiver.url, wechat.tradeNotice(request.outTradeNo, changes));
      expect(receiver.received.at(-1)).toMatchObject({
        kind: 'trade',
        trade: { state: 'paid', amountFen: 1, appId: 'wx0000000000000000', merchantId: '1900000000' },
      });

      // A refund carries no app id: one of another merchant is refused by the channel itself.
      const outRefundNo = `R${request.outTradeNo}`;
      await channel.refund({
        outTradeNo: request.outTradeNo,
        outRefundNo,
        refundFen: 1990,
        totalFen: 1990,
        reason: '退款',
      });
      wechat.settleRefund(outRefundNo);
      const delivery = await wechat.deliver(receiver.url, wechat.refundNotice(outRefundNo, { mchid: '1900000000' }));
      expect(delivery.status).toBe(400);
      expect(receiver.refused.at(-1)).toBe('refund of another merchant');
    });

    it('a refund is processing, then its REFUND.SUCCESS notification and the refund query say succeeded', async () => {
      const request = payRequest();
      await channel.pay(request);
      wechat.pay(request.outTradeNo);
      const outRefundNo = `R${request.outTradeNo}`;
      const refund = {
        outTradeNo: request.outTradeNo,
        outRefundNo,
        refundFen: 990,
        totalFen: 1990,
        reason: '用户申请退款',
      };

      expect(await channel.refund(refund)).toMatchObject({ outRefundNo, state: 'processing', refundFen: 990 });
      expect(await channel.queryRefund(request.outTradeNo, outRefundNo)).toMatchObject({ state: 'processing' });
      expect(await channel.query(request.outTradeNo)).toMatchObject({ state: 'refunded', amountFen: 1990 });

      const done = wechat.settleRefund(outRefundNo);
      const delivery = await wechat.deliver(done.notifyUrl!, wechat.refundNotice(outRefundNo));
      expect(delivery).toMatchObject({ eventType: 'REFUND.SUCCESS', status: 204 });
      expect(receiver.received.at(-1)).toMatchObject({
        kind: 'refund',
        refund: { outRefundNo, state: 'succeeded', refundFen: 990 },
      });
      expect(await channel.queryRefund(request.outTradeNo, outRefundNo)).toMatchObject({ state: 'succeeded' });
      // The same refund asked again is the same refund: WeChat refunds it once.
      expect(await channel.refund(refund)).toMatchObject({ state: 'succeeded', raw: { refund_id: done.refundId } });
      expect([...wechat.refunds.values()].filter((r) => r.outTradeNo === request.outTradeNo)).toHaveLength(1);
    });
  });
}

describe('WeChat Pay channel: paying on each device, query, close, refund refusals', () => {
  let wechat: WechatPayDouble;
  let channel: WechatPayChannel;
  const notifyUrl = 'https://huafang.example.com/api/payments/notify/wechat';

  let stranger: WechatPayAccount;

  beforeAll(async () => {
    wechat = await startWechatPayDouble(await newWechatPayAccount('public-key'));
    channel = new WechatPayChannel(wechat.config, notifyUrl);
    stranger = await newWechatPayAccount('public-key');
  });
  afterAll(() => wechat.close());

  it('desktop: a Native order gives the code_url the page draws as a QR code', async () => {
    const request = payRequest();
    const action = await channel.pay(request);

    expect(action).toEqual({ kind: 'qrcode', codeUrl: expect.stringMatching(/^weixin:\/\/wxpay\/bizpayurl\?pr=/) });
    expect(wechat.trades.get(request.outTradeNo)).toMatchObject({
      tradeType: 'NATIVE',
      appid: wechat.account.appId,
      mchid: wechat.account.merchantId,
      total: 1990,
      description: '画坊 进阶套餐',
      notifyUrl,
      timeExpire: new Date(Math.floor(request.expiresAt.getTime() / 1000) * 1000),
    });
    // The same order placed again gets the same QR code.
    expect(await channel.pay(request)).toEqual(action);
    expect(wechat.rejections).toEqual([]);
  });

  it('phone: an H5 order gives h5_url with the page to come back to as redirect_url', async () => {
    const request = payRequest({ device: 'phone' });
    const action = await channel.pay(request);

    const h5Url = wechat.trades.get(request.outTradeNo)!.answer.h5_url!;
    expect(action).toEqual({
      kind: 'redirect',
      url: `${h5Url}&redirect_url=${encodeURIComponent('https://huafang.example.com/store/result?order=1')}`,
    });
    expect(wechat.requests.at(-1)?.body).toMatchObject({
      scene_info: { payer_client_ip: '203.0.113.9', h5_info: { type: 'Wap' } },
    });
  });

  it('an order placed again on another device is refused by WeChat (201 商户订单号重复)', async () => {
    const request = payRequest();
    await channel.pay(request);
    await expect(channel.pay({ ...request, device: 'phone' })).rejects.toMatchObject({
      status: 400,
      code: 'INVALID_REQUEST',
    });
  });

  it('inside WeChat: the snsapi_base OAuth step gives the openid, and JSAPI gives parameters signed for WeixinJSBridge', async () => {
    expect(channel.devices).toEqual(['desktop', 'phone', 'wechat']);
    const account = wechat.config.officialAccount!;
    const authorize = snsapiBaseAuthorizeUrl(account, 'https://huafang.example.com/store/wechat-return', 'plan-3');
    expect(authorize).toBe(
      `${wechat.url}/connect/oauth2/authorize?appid=${wechat.account.mpAppId}&redirect_uri=${encodeURIComponent('https://huafang.example.com/store/wechat-return')}&response_type=code&scope=snsapi_base&state=plan-3#wechat_redirect`,
    );
    // WeChat's browser is sent back to the redirect URI with a code and the state.
    const back = new URL((await fetch(authorize, { redirect: 'manual' })).headers.get('location')!);
    expect(back.origin + back.pathname).toBe('https://huafang.example.com/store/wechat-return');
    expect(back.searchParams.get('state')).toBe('plan-3');
    const code = back.searchParams.get('code')!;
    const openid = await openidForCode(account, code);
    expect(openid).toBe(wechat.account.openid);

    const request = payRequest({ device: 'wechat', openid });
    const action = await channel.pay(request);
    if (action.kind !== 'jsapi') throw new Error(`expected jsapi, got ${action.kind}`);
    const trade = wechat.trades.get(request.outTradeNo)!;
    expect(trade).toMatchObject({ tradeType: 'JSAPI', appid: wechat.account.mpAppId, openid });
    const { params } = action;
    expect(params).toMatchObject({
      appId: wechat.account.mpAppId,
      package: `prepay_id=${trade.answer.prepay_id}`,
      signType: 'RSA',
      timeStamp: expect.stringMatching(/^\d{10}$/),
      nonceStr: expect.stringMatching(/^\w{32}$/),
    });
    const signed = `${params.appId}\n${params.timeStamp}\n${params.nonceStr}\n${params.package}\n`;
    expect(
      createVerify('RSA-SHA256').update(signed).verify(wechat.account.merchantPublicKey, params.paySign!, 'base64'),
    ).toBe(true);

    // A code is good once; the failure names WeChat's error, never the app secret.
    const again = await openidForCode(account, code).catch((err: unknown) => err);
    expect(again).toBeInstanceOf(WechatOAuthError);
    expect(again).toMatchObject({ errcode: 40029, message: '微信网页授权换取 openid 失败：40029 invalid code' });
  });

  it('without an official account, JSAPI is not offered', () => {
    const native = new WechatPayChannel({ ...wechat.config, officialAccount: undefined }, notifyUrl);
    expect(native.devices).toEqual(['desktop', 'phone']);
    expect(native.appIds).toEqual([wechat.account.appId]);
    expect(channel.appIds).toEqual([wechat.account.appId, wechat.account.mpAppId]);
  });

  it('query follows the trade: missing, NOTPAY → pending, SUCCESS → paid, CLOSED → closed, and expired → closed', async () => {
    const request = payRequest();
    expect(await channel.query(request.outTradeNo)).toMatchObject({ state: 'missing' });
    await channel.pay(request);
    expect(await channel.query(request.outTradeNo)).toMatchObject({
      state: 'pending',
      raw: { trade_state: 'NOTPAY' },
    });
    wechat.pay(request.outTradeNo);
    const paid = await channel.query(request.outTradeNo);
    expect(paid).toMatchObject({
      state: 'paid',
      tradeNo: wechat.trades.get(request.outTradeNo)!.transactionId,
      amountFen: 1990,
      appId: wechat.account.appId,
      merchantId: wechat.account.merchantId,
      raw: { trade_state: 'SUCCESS', trade_type: 'NATIVE' },
    });

    const closing = payRequest();
    await channel.pay(closing);
    await channel.close(closing.outTradeNo);
    expect(await channel.query(closing.outTradeNo)).toMatchObject({ state: 'closed', raw: { trade_state: 'CLOSED' } });

    const expiring = payRequest({ expiresAt: new Date(Date.now() + 1000) });
    await channel.pay(expiring);
    wechat.trades.get(expiring.outTradeNo)!.timeExpire = new Date(Date.now() - 1000);
    expect(await channel.query(expiring.outTradeNo)).toMatchObject({ state: 'closed' });
  });

  it('close: an unknown trade counts as closed; a paid one is refused with ORDERPAID; one paid after closing shows paid', async () => {
    await expect(channel.close(orderNo())).resolves.toBeUndefined();
    const request = payRequest();
    await channel.pay(request);
    wechat.pay(request.outTradeNo);
    await expect(channel.close(request.outTradeNo)).rejects.toMatchObject({ code: 'ORDERPAID' });

    const late = payRequest();
    await channel.pay(late);
    await channel.close(late.outTradeNo);
    await channel.close(late.outTradeNo);
    wechat.pay(late.outTradeNo, { afterClose: true });
    expect(await channel.query(late.outTradeNo)).toMatchObject({ state: 'paid' });
  });

  it('a refund WeChat refuses (more than was paid, an unpaid trade) comes back failed with WeChat’s reason', async () => {
    const request = payRequest();
    await channel.pay(request);
    const unpaid = await channel.refund({
      outTradeNo: request.outTradeNo,
      outRefundNo: `R${request.outTradeNo}`,
      refundFen: 100,
      totalFen: 1990,
      reason: '测试',
    });
    expect(unpaid).toMatchObject({ state: 'failed', raw: { code: 'INVALID_REQUEST' } });
    wechat.pay(request.outTradeNo);
    const tooMuch = await channel.refund({
      outTradeNo: request.outTradeNo,
      outRefundNo: `R2${request.outTradeNo}`,
      refundFen: 2000,
      totalFen: 1990,
      reason: '测试',
    });
    expect(tooMuch).toMatchObject({ state: 'failed', raw: { code: 'INVALID_REQUEST' } });
    expect(await channel.queryRefund(request.outTradeNo, 'R-never-asked')).toMatchObject({
      state: 'failed',
      raw: { code: 'RESOURCE_NOT_EXISTS' },
    });
  });

  it('an answer whose signature does not verify is refused, and so is a request signed with another merchant key', async () => {
    const request = payRequest();
    await channel.pay(request);
    wechat.tamperNextAnswer();
    await expect(channel.query(request.outTradeNo)).rejects.toMatchObject({
      code: 'EV3_RES_HEADER_SIGNATURE_DIGEST',
    });

    const wrongKey = new WechatPayChannel({ ...wechat.config, privateKey: stranger.merchantPrivateKey }, notifyUrl);
    const refused = await wrongKey.query(request.outTradeNo).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(WechatPayError);
    expect(refused).toMatchObject({
      status: 401,
      code: 'SIGN_ERROR',
      message: '微信支付查询订单失败：SIGN_ERROR 签名错误',
    });
    for (const secret of secretsOf(wechat)) expect(String(refused)).not.toContain(secret);
  });

  it('WeChat busy or a proxy down: the call throws (a refund too, to be retried with the same out_refund_no)', async () => {
    const request = payRequest();
    await channel.pay(request);
    wechat.pay(request.outTradeNo);
    wechat.failNext({ status: 500, code: 'SYSTEM_ERROR', message: '系统异常，请稍后重试' });
    await expect(channel.query(request.outTradeNo)).rejects.toMatchObject({
      status: 500,
      code: 'SYSTEM_ERROR',
      message: '微信支付查询订单失败：SYSTEM_ERROR 系统异常，请稍后重试',
    });
    wechat.failNext('http-502');
    await expect(channel.close(request.outTradeNo)).rejects.toMatchObject({ status: 502, code: 'HTTP_502' });
    const refund = {
      outTradeNo: request.outTradeNo,
      outRefundNo: `R${request.outTradeNo}`,
      refundFen: 1990,
      totalFen: 1990,
      reason: '退款',
    };
    wechat.failNext({ status: 429, code: 'FREQUENCY_LIMITED', message: '频率超限' });
    await expect(channel.refund(refund)).rejects.toMatchObject({ code: 'FREQUENCY_LIMITED' });
    wechat.failNext('reset');
    await expect(channel.refund(refund)).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(await channel.refund(refund)).toMatchObject({ state: 'processing', refundFen: 1990 });
  });

  it('an unreachable API fails with a message naming the step, without keys', async () => {
    const down = new WechatPayChannel({ ...wechat.config, baseUrl: 'http://127.0.0.1:9' }, notifyUrl);
    const failure = await down.pay(payRequest()).catch((err: unknown) => err);
    expect(failure).toMatchObject({ code: 'ECONNREFUSED', message: '微信支付Native 下单失败：ECONNREFUSED' });
    for (const secret of secretsOf(wechat)) expect(JSON.stringify(failure)).not.toContain(secret);
  });
});

describe('WeChat Pay configuration', () => {
  let env: Record<string, string>;
  let platformEnv: Record<string, string>;
  let secrets: string[];
  beforeAll(async () => {
    const account = await newWechatPayAccount('public-key');
    env = wechatPayEnv(account, 'https://api.mch.weixin.qq.com');
    platformEnv = wechatPayEnv(await newWechatPayAccount('platform-cert'), 'https://api.mch.weixin.qq.com');
    secrets = [account.apiV3Key, account.mpAppSecret, account.merchantPrivateKeyPem.split('\n')[5]!];
  });
  const without = (names: string[]) =>
    Object.fromEntries(Object.entries(env).filter(([name]) => !names.includes(name)));
  const refusal = (vars: Record<string, string>) => {
    try {
      loadWechatPayConfig(vars);
    } catch (err) {
      return (err as Error).message;
    }
    throw new Error('the configuration was accepted');
  };

  it('is off while none of its variables is set', () => {
    expect(loadWechatPayConfig({})).toBeUndefined();
    expect(
      loadWechatPayConfig({ WECHATPAY_MCH_ID: '', WECHATPAY_BASE_URL: 'https://api2.mch.weixin.qq.com' }),
    ).toBeUndefined();
  });

  it('reads both modes: the public key under its id, the platform certificate under its serial', () => {
    const publicKey = loadWechatPayConfig(env)!;
    expect(Object.keys(publicKey.verifiers)).toEqual([env.WECHATPAY_PUBLIC_KEY_ID]);
    expect(publicKey.officialAccount?.appId).toBe(env.WECHATPAY_MP_APP_ID);
    const platform = loadWechatPayConfig(platformEnv)!;
    expect(Object.keys(platform.verifiers)).toEqual([expect.stringMatching(/^[0-9A-F]+$/)]);
    expect(loadWechatPayConfig(without(['WECHATPAY_BASE_URL']))!.baseUrl).toBe('https://api.mch.weixin.qq.com');
  });

  it('takes keys as one-line PEMs with \\n, or as the path of the file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wechatpay-'));
    writeFileSync(path.join(dir, 'apiclient_key.pem'), env.WECHATPAY_PRIVATE_KEY!);
    const config = loadWechatPayConfig({
      ...env,
      WECHATPAY_PRIVATE_KEY: path.join(dir, 'apiclient_key.pem'),
      WECHATPAY_PUBLIC_KEY: env.WECHATPAY_PUBLIC_KEY!.replace(/\n/g, '\\n'),
    });
    expect(config?.privateKey.asymmetricKeyType).toBe('rsa');
  });

  it('refuses a partial configuration, naming each missing variable', () => {
    expect(refusal(without(['WECHATPAY_API_V3_KEY', 'WECHATPAY_CERT_SERIAL']))).toBe(
      'Invalid configuration:\n' +
        '  WECHATPAY_API_V3_KEY: required when WeChat Pay is configured（微信支付缺少此变量）\n' +
        '  WECHATPAY_CERT_SERIAL: required when WeChat Pay is configured（微信支付缺少此变量）',
    );
    expect(refusal(without(['WECHATPAY_PUBLIC_KEY', 'WECHATPAY_PUBLIC_KEY_ID']))).toMatch(
      /WECHATPAY_PUBLIC_KEY: WECHATPAY_PUBLIC_KEY with WECHATPAY_PUBLIC_KEY_ID .*or WECHATPAY_PLATFORM_CERT/,
    );
    expect(refusal(without(['WECHATPAY_PUBLIC_KEY_ID']))).toMatch(/^ {2}WECHATPAY_PUBLIC_KEY_ID: required/m);
    expect(refusal(without(['WECHATPAY_MP_APP_SECRET']))).toMatch(/^ {2}WECHATPAY_MP_APP_SECRET: required with/m);
    expect(refusal({ WECHATPAY_MCH_ID: '1900009191' })).toMatch(/WECHATPAY_APP_ID: required/);
  });

  it('refuses unusable values without quoting them', () => {
    const messages = [
      refusal({ ...env, WECHATPAY_API_V3_KEY: `${env.WECHATPAY_API_V3_KEY}x` }),
      refusal({ ...env, WECHATPAY_PRIVATE_KEY: env.WECHATPAY_PRIVATE_KEY!.slice(0, 400) }),
      refusal({ ...env, WECHATPAY_PUBLIC_KEY: 'not-a-key-MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA' }),
      refusal({
        ...platformEnv,
        WECHATPAY_PLATFORM_CERT: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
      }),
      refusal({ ...env, WECHATPAY_PUBLIC_KEY_ID: 'KEY123' }),
    ];
    expect(messages.map((m) => m.split('\n')[1]?.split(':')[0]?.trim())).toEqual([
      'WECHATPAY_API_V3_KEY',
      'WECHATPAY_PRIVATE_KEY',
      'WECHATPAY_PUBLIC_KEY',
      'WECHATPAY_PLATFORM_CERT',
      'WECHATPAY_PUBLIC_KEY_ID',
    ]);
    for (const message of messages) {
      for (const secret of [...secrets, 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA', 'KEY123']) {
        expect(message).not.toContain(secret);
      }
    }
  });
});
