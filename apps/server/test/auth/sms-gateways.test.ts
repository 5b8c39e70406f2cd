import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SmsConfig } from '../../src/config.js';
import { type AliyunSmsDouble, startAliyunSmsDouble } from '../doubles/aliyun-sms-double.js';
import { startTencentSmsDouble, type TencentSmsDouble } from '../doubles/tencent-sms-double.js';
import { describeServer } from '../helpers/suite.js';
import { mentionsCode, PASSWORD, type TestApp, uniqueMobile } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const FAILED = '短信发送失败，请稍后再试';
const THROTTLED = '短信发送过于频繁，请稍后再试';
const MOBILE_REJECTED = '该手机号无法接收短信，请检查号码是否正确';

/** A log line without its timestamp, which could contain six given digits by chance. */
const withoutTime = (line: string) => line.replace(/"time":\d+/, '');

/** Sends a code and answers with the envelope and HTTP status. */
const sendCode = (app: TestApp, mobile: string) => app.call('POST', '/api/auth/sendCode', { body: { mobile } });
const loginByCode = (app: TestApp, mobile: string, code: string) =>
  app.call('POST', '/api/auth/mobile', { body: { mobile, code } });

/** The stored code rows of a mobile, newest first. */
const codeRows = (app: TestApp, mobile: string) =>
  app.db.selectFrom('sms_codes').selectAll().where('mobile', '=', mobile).orderBy('created_at', 'desc').execute();

/** The code leaves nothing usable behind: the row is there (for the resend interval) but void. */
async function expectVoidCode(app: TestApp, mobile: string, code: string) {
  const [row] = await codeRows(app, mobile);
  expect(row?.used_at).not.toBeNull();
  expect((await loginByCode(app, mobile, code)).body).toMatchObject({ code: -1, msg: '验证码无效，请重新获取' });
}

describeServer('SMS gateway aliyun: codes go out through SendSms, failures leave nothing usable', () => {
  let double: AliyunSmsDouble;
  let sms: Extract<SmsConfig, { kind: 'aliyun' }>;
  /** Every code the provider was handed, sent or not: none may show up in a log. */
  const handedOver = () => double.requests.map((request) => JSON.parse(request.templateParam).code as string);

  beforeAll(async () => {
    double = await startAliyunSmsDouble();
    sms = { kind: 'aliyun', ...double.settings, timeoutMs: 1000 };
  });
  afterAll(() => double.close());
  const ctx = useTestApp({ config: () => ({ sms }) });

  it('sends the code the provider then delivers; that code logs in and registers', async () => {
    const mobile = uniqueMobile();
    const sent = await sendCode(ctx.app, mobile);
    expect(sent.body).toMatchObject({ code: 0, msg: '验证码已发送', data: { resendAfter: 60 } });
    const code = double.lastCodeTo(mobile);
    expect(code).toMatch(/^\d{6}$/);
    expect(double.rejections).toEqual([]);

    const login = await loginByCode(ctx.app, mobile, code!);
    expect(login.body.code).toBe(405);
    const signUp = await ctx.app.call('POST', '/api/auth/signUp', {
      body: { userId: login.body.data.userId, password: PASSWORD },
    });
    expect(signUp.body).toMatchObject({ code: 0, data: { admin: 'false' } });
  });

  it("answers the provider's flow control in Chinese; the code is void and the resend interval still holds", async () => {
    const mobile = uniqueMobile();
    double.failNext({ code: 'isv.BUSINESS_LIMIT_CONTROL' });
    const refused = await sendCode(ctx.app, mobile);
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ code: -1, msg: THROTTLED });
    await expectVoidCode(ctx.app, mobile, handedOver().at(-1)!);

    // The failed attempt counts: no second call reaches the provider within the interval.
    const calls = double.requests.length;
    const again = await sendCode(ctx.app, mobile);
    expect(again.status).toBe(429);
    expect(again.body.msg).toMatch(/^验证码发送过于频繁，请 \d+ 秒后再试$/);
    expect(double.requests).toHaveLength(calls);

    ctx.app.advanceClock(61_000);
    expect((await sendCode(ctx.app, mobile)).body.code).toBe(0);
    expect((await loginByCode(ctx.app, mobile, double.lastCodeTo(mobile)!)).body.code).toBe(405);
  });

  it('answers a number the provider will not deliver to, and every other failure, with its own message', async () => {
    const rejected = uniqueMobile();
    double.failNext({ code: 'isv.MOBILE_NUMBER_ILLEGAL' });
    expect((await sendCode(ctx.app, rejected)).body).toMatchObject({ code: -1, msg: MOBILE_REJECTED });
    await expectVoidCode(ctx.app, rejected, handedOver().at(-1)!);

    const failures = [
      { code: 'isv.AMOUNT_NOT_ENOUGH' },
      { code: 'isv.SMS_TEMPLATE_ILLEGAL' },
      { code: 'isv.SMS_SIGNATURE_ILLEGAL' },
      { status: 404, code: 'InvalidAccessKeyId.NotFound' },
      'html-500',
      'reset',
      // Longer than SMS_TIMEOUT_SECONDS (1 s here).
      'hang',
    ] as const;
    for (const failure of failures) {
      const mobile = uniqueMobile();
      double.failNext(failure);
      const res = await sendCode(ctx.app, mobile);
      expect(res.body, JSON.stringify(failure)).toMatchObject({ code: -1, msg: FAILED });
      await expectVoidCode(ctx.app, mobile, handedOver().at(-1)!);
    }
  });

  it('answers a provider that is down; the per-address limit still counts the failed sends', async () => {
    const closed = await startAliyunSmsDouble(double.account);
    await closed.close();
    const down = await ctx.app.sibling({
      sms: { ...sms, endpoint: closed.url },
      rateLimit: { login: 1000, sendCode: 2, signUp: 1000 },
    });
    try {
      // A loopback address of this run alone: scale-out keeps the counters in Redis for a minute.
      const remoteAddress = `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(1, 255)}`;
      const attempt = (mobile: string) =>
        down.app.inject({ method: 'POST', url: '/api/auth/sendCode', remoteAddress, payload: { mobile } });
      for (let i = 0; i < 2; i++) {
        const mobile = uniqueMobile();
        const res = await attempt(mobile);
        expect(res.json()).toMatchObject({ code: -1, msg: FAILED });
        const [row] = await codeRows(down, mobile);
        expect(row?.used_at).not.toBeNull();
      }
      const limited = await attempt(uniqueMobile());
      expect(limited.statusCode).toBe(429);
      expect(limited.json().msg).toMatch(/^操作过于频繁，请 \d+ 秒后再试$/);
      expect(down.logLines.some((line) => line.includes('"providerCode":"ECONNREFUSED"'))).toBe(true);
      expect(down.logLines.join('\n')).not.toContain('SMS code for');
    } finally {
      await down.close();
    }
  });

  it('never writes a code to the log: only the provider error codes', async () => {
    const lines = ctx.app.logLines.map(withoutTime);
    expect(lines.join('\n')).not.toContain('SMS code for');
    expect(handedOver().length).toBeGreaterThan(5);
    for (const code of handedOver()) {
      expect(lines.filter((line) => mentionsCode(line, code))).toEqual([]);
    }
    expect(lines.some((line) => line.includes('"providerCode":"isv.BUSINESS_LIMIT_CONTROL"'))).toBe(true);
  });
});

describeServer('SMS gateway tencent: codes go out through SendSms, failures leave nothing usable', () => {
  let double: TencentSmsDouble;

  beforeAll(async () => {
    double = await startTencentSmsDouble();
  });
  afterAll(() => double.close());
  const ctx = useTestApp({ config: () => ({ sms: { kind: 'tencent', ...double.settings, timeoutMs: 1000 } }) });

  it('sends the code the provider then delivers; that code logs in', async () => {
    const mobile = uniqueMobile();
    expect((await sendCode(ctx.app, mobile)).body.code).toBe(0);
    expect(double.requests.at(-1)?.phoneNumberSet).toEqual([`+86${mobile}`]);
    expect(double.rejections).toEqual([]);
    expect((await loginByCode(ctx.app, mobile, double.lastCodeTo(mobile)!)).body.code).toBe(405);
  });

  it('reads a refusal of the number inside a call that succeeded, and a refusal of the call', async () => {
    const cases = [
      [{ status: 'LimitExceeded.PhoneNumberDailyLimit' }, THROTTLED],
      [{ status: 'InvalidParameterValue.IncorrectPhoneNumber' }, MOBILE_REJECTED],
      [{ error: 'FailedOperation.TemplateIncorrectOrUnapproved' }, FAILED],
      [{ error: 'FailedOperation.InsufficientBalanceInSmsPackage' }, FAILED],
      ['http-502', FAILED],
    ] as const;
    for (const [failure, msg] of cases) {
      const mobile = uniqueMobile();
      double.failNext(failure);
      expect((await sendCode(ctx.app, mobile)).body, JSON.stringify(failure)).toMatchObject({ code: -1, msg });
      await expectVoidCode(ctx.app, mobile, double.requests.at(-1)?.templateParamSet[0] ?? '');
      expect((await sendCode(ctx.app, mobile)).status).toBe(429);
    }
    expect(double.rejections).toEqual([]);
  });

  it('never writes a code to the log', () => {
    const lines = ctx.app.logLines.map(withoutTime);
    expect(lines.join('\n')).not.toContain('SMS code for');
    const codes = double.requests.flatMap((request) => request.templateParamSet);
    expect(codes.length).toBeGreaterThan(3);
    for (const code of codes) expect(lines.filter((line) => mentionsCode(line, code))).toEqual([]);
    expect(lines.some((line) => line.includes('"providerCode":"LimitExceeded.PhoneNumberDailyLimit"'))).toBe(true);
  });
});
