import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { AlipayChannel } from '../../src/features/payments/alipay-channel.js';
import { AlipayDouble } from '../doubles/alipay-double.js';
import { describeServer } from '../helpers/suite.js';
import { registerUser, type TestUser } from '../helpers/test-app.js';
import { useAlipayApp } from './alipay-app.js';

/**
 * Alipay in certificate mode (公钥证书模式), through the real alipay-sdk: the double issues a root bundle, the app's
 * certificate and Alipay's, and as Alipay's gateway requires the SNs of the app's certificate and of the root in
 * every request and names its own certificate's SN in every answer.
 */
describeServer('payments: Alipay in certificate mode', () => {
  const double = new AlipayDouble('cert');
  const { ctx, baseUrl, notifyUrl } = useAlipayApp(double);
  let plan: { id: string; priceFen: number; credits: number };
  beforeAll(async () => {
    const someone = await registerUser(ctx.app);
    const store = await ctx.app.call('GET', '/api/account/combo/store', { token: someone.token });
    plan = store.body.data.plans[0];
  });

  const certs = () => double.certs!;

  /** A new buyer orders the plan and opens Alipay's cashier page the answer points at. */
  async function buy() {
    const buyer = await registerUser(ctx.app);
    const res = await ctx.app.call('POST', '/api/pay/orders', {
      token: buyer.token,
      body: { planId: plan.id, channel: 'alipay', device: 'desktop' },
    });
    expect(res.body.code, res.body.msg).toBe(0);
    const { order, action } = res.body.data;
    const cashier = await fetch(action.url);
    expect(cashier.status).toBe(200);
    return {
      buyer,
      orderId: order.id as string,
      url: new URL(action.url),
      start: (await status(buyer, order.id)).credits,
    };
  }

  async function status(buyer: TestUser, orderId: string) {
    return (await ctx.app.call('GET', `/api/pay/orders/${orderId}`, { token: buyer.token })).body.data;
  }

  it('names the app certificate and the RSA roots of the bundle by the SNs Alipay computes', async () => {
    const { url } = await buy();
    // The root bundle holds an RSA root and an ECC root, like alipayRootCert.crt; only the RSA one counts.
    expect(certs().root.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    expect(certs().rootSn).toMatch(/^[0-9a-f]{32}$/);
    expect(url.searchParams.get('app_cert_sn')).toBe(certs().appSn);
    expect(url.searchParams.get('alipay_root_cert_sn')).toBe(certs().rootSn);
  });

  it("credits the plan once the buyer pays: the notification is verified against Alipay's certificate", async () => {
    const { buyer, orderId, start } = await buy();
    expect(await double.pay(orderId)).toContain('sign=');
    const after = await status(buyer, orderId);
    expect(after.order.status).toBe('paid');
    expect(after.credits).toBe(start + plan.credits);
  });

  it("我已支付 queries Alipay and settles on its answer, signed under Alipay's certificate (alipay_cert_sn)", async () => {
    const { buyer, orderId, start } = await buy();
    await double.pay(orderId, { deliver: false });
    const checked = await ctx.app.call('POST', `/api/pay/orders/${orderId}/check`, { token: buyer.token });
    expect(checked.body.code, checked.body.msg).toBe(0);
    expect(checked.body.data.order.status).toBe('paid');
    expect(checked.body.data.credits).toBe(start + plan.credits);
    expect(
      double.calls.filter((c) => c.method === 'alipay.trade.query' && c.biz.out_trade_no === orderId),
    ).toHaveLength(1);
  });

  it("refuses to settle on a gateway answer whose signature is not by the key in Alipay's certificate", async () => {
    const { buyer, orderId, start } = await buy();
    await double.pay(orderId, { deliver: false });
    double.answerKey = double.app.privateKey;
    try {
      const checked = await ctx.app.call('POST', `/api/pay/orders/${orderId}/check`, { token: buyer.token });
      expect(checked.body).toMatchObject({ code: -1, msg: '暂时无法向支付渠道确认支付结果，请稍后再试' });
    } finally {
      double.answerKey = double.alipay.privateKey;
    }
    expect((await status(buyer, orderId)).order.status).toBe('pending');
    expect((await status(buyer, orderId)).credits).toBe(start);
  });

  it("never credits a notification signed by a key other than the one in Alipay's certificate", async () => {
    const { buyer, orderId, start } = await buy();
    await double.pay(orderId, { deliver: false });
    const forged = double.signNotice(
      Object.fromEntries(new URLSearchParams(double.tradeNotice(orderId))),
      double.app.privateKey,
    );
    expect(await double.deliver(double.notifyUrlOf(orderId), forged)).toBe('fail');
    expect((await status(buyer, orderId)).order.status).toBe('pending');
    expect((await status(buyer, orderId)).credits).toBe(start);
  });

  it('refunds through the certificate-signed API and takes the credits back', async () => {
    const { buyer, orderId, start } = await buy();
    await double.pay(orderId);
    const refund = await ctx.app.call('POST', `/api/admin/orders/${orderId}/refund`, {
      token: ctx.admin,
      body: { amountFen: plan.priceFen, reason: '用户申请退款' },
    });
    expect(refund.body.code, refund.body.msg).toBe(0);
    expect(refund.body.data.order.status).toBe('refunded');
    expect((await status(buyer, orderId)).credits).toBe(start);
  });

  it('reads the three certificates from files, as an operator mounts them, and talks to Alipay with them', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'huafang-alipay-certs-'));
    try {
      const files = {
        ALIPAY_APP_CERT: path.join(dir, `appCertPublicKey_${double.appId}.crt`),
        ALIPAY_ROOT_CERT: path.join(dir, 'alipayRootCert.crt'),
        ALIPAY_PUBLIC_CERT: path.join(dir, 'alipayCertPublicKey_RSA2.crt'),
      };
      const env = double.environment(baseUrl());
      for (const [name, file] of Object.entries(files)) await writeFile(file, env[name]!);
      const alipay = loadConfig({ ...env, ...files }).payments.alipay;
      expect(alipay?.keys).toEqual({
        mode: 'cert',
        appCert: certs().app,
        rootCert: certs().root,
        publicCert: certs().alipay,
      });
      const channel = new AlipayChannel(alipay!, notifyUrl());
      expect(await channel.query('no-such-order')).toMatchObject({ state: 'missing' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is refused by the gateway with an app certificate Alipay did not issue for the app', async () => {
    const stranger = await new AlipayDouble('cert').start();
    try {
      const config = double.config();
      if (config.keys.mode !== 'cert') throw new Error('the double is in certificate mode');
      const channel = new AlipayChannel(
        { ...config, keys: { ...config.keys, appCert: stranger.certs!.app } },
        notifyUrl(),
      );
      await expect(channel.query('no-such-order')).rejects.toThrow(/isv\.app-cert-not-exist/);
    } finally {
      await stranger.close();
    }
  });
});
