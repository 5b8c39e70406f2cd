import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SmsGatewayConfig } from '../../../src/config.js';
import { AliyunSmsProvider } from '../../../src/platform/sms/aliyun-sms-provider.js';
import { type SmsFailure, SmsSendError } from '../../../src/platform/sms/sms-provider.js';
import { TencentSmsProvider } from '../../../src/platform/sms/tencent-sms-provider.js';
import { type AliyunSmsDouble, type AliyunSmsFailure, startAliyunSmsDouble } from '../../doubles/aliyun-sms-double.js';
import { capturedLog, resultOrFailure } from '../../doubles/provider-test-kit.js';
import {
  startTencentSmsDouble,
  type TencentSmsDouble,
  type TencentSmsFailure,
} from '../../doubles/tencent-sms-double.js';

let codeCounter = 907000;
const nextCode = () => {
  codeCounter += 13;
  return String(codeCounter);
};
/** A log line without its timestamp, which could contain six given digits by chance. */
const withoutTime = (line: string) => line.replace(/"time":\d+/, '');

/** The kind the provider's SmsSendError names, or 'sent'. */
const outcome = (send: Promise<void>) =>
  resultOrFailure(
    send.then(() => 'sent' as const),
    SmsSendError,
  );

describe('Aliyun SendSms through the official SDK, against a double of dysmsapi', () => {
  let double: AliyunSmsDouble;
  const { log, lines } = capturedLog();
  const gateway = (overrides: Partial<SmsGatewayConfig> = {}) =>
    new AliyunSmsProvider({ ...double.settings, timeoutMs: 2000, ...overrides }, log);
  beforeAll(async () => {
    double = await startAliyunSmsDouble();
  });
  afterAll(() => double.close());

  it('sends SendSms 2017-05-25 with the documented parameters and a valid ACS3-HMAC-SHA256 signature', async () => {
    const code = nextCode();
    await gateway().sendCode('13800138000', code);
    expect(double.rejections).toEqual([]);
    expect(double.requests.at(-1)).toEqual({
      phoneNumbers: '13800138000',
      signName: '画坊',
      templateCode: 'SMS_154950909',
      templateParam: JSON.stringify({ code }),
    });
    expect(double.lastCodeTo('13800138000')).toBe(code);
  });

  it('maps the documented error codes to what the user can do about them', async () => {
    const cases: [AliyunSmsFailure, SmsFailure][] = [
      [{ code: 'isv.BUSINESS_LIMIT_CONTROL' }, 'throttled'],
      [{ status: 400, code: 'Throttling.User' }, 'throttled'],
      [{ code: 'isv.MOBILE_NUMBER_ILLEGAL' }, 'mobile-rejected'],
      [{ code: 'isv.AMOUNT_NOT_ENOUGH' }, 'failed'],
      [{ code: 'isp.SYSTEM_ERROR' }, 'failed'],
      [{ status: 503, code: 'ServiceUnavailable' }, 'failed'],
      ['html-500', 'failed'],
      ['reset', 'failed'],
    ];
    for (const [failure, expected] of cases) {
      double.failNext(failure);
      expect(await outcome(gateway().sendCode('13800138001', nextCode())), JSON.stringify(failure)).toBe(expected);
    }
    expect(double.rejections).toEqual([]);
  });

  it("fails on a signature or template the account does not have, a wrong key or secret, as Aliyun's own checks answer", async () => {
    expect(await outcome(gateway({ signName: '别家' }).sendCode('13800138002', nextCode()))).toBe('failed');
    expect(await outcome(gateway({ templateCode: 'SMS_000000000' }).sendCode('13800138002', nextCode()))).toBe(
      'failed',
    );
    expect(await outcome(gateway({ accessKeySecret: 'wrong' }).sendCode('13800138002', nextCode()))).toBe('failed');
    expect(await outcome(gateway({ accessKeyId: 'LTAI5tNobody' }).sendCode('13800138002', nextCode()))).toBe('failed');
    expect(double.rejections).toEqual([
      'SignatureDoesNotMatch: the signature does not match',
      'InvalidAccessKeyId.NotFound: unknown AccessKeyId',
    ]);
    const logged = lines.slice(-4).map((line) => JSON.parse(line).providerCode);
    expect(logged).toEqual([
      'isv.SMS_SIGNATURE_ILLEGAL',
      'isv.SMS_TEMPLATE_ILLEGAL',
      'SignatureDoesNotMatch',
      'InvalidAccessKeyId.NotFound',
    ]);
    double.rejections.length = 0;
  });

  it('gives up after the timeout when the provider does not answer', async () => {
    double.failNext('hang');
    const started = Date.now();
    expect(await outcome(gateway({ timeoutMs: 300 }).sendCode('13800138003', nextCode()))).toBe('failed');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("logs the provider's error code, never the verification code, even when the SDK quotes the request URL", async () => {
    const code = nextCode();
    const before = lines.length;
    double.failNext({ code: 'isv.BUSINESS_LIMIT_CONTROL' });
    await outcome(gateway().sendCode('13800138004', code));
    // Connection refused: the SDK's message carries the whole URL, TemplateParam included.
    const closed = await startAliyunSmsDouble(double.account);
    await closed.close();
    const refusedCode = nextCode();
    expect(await outcome(gateway({ endpoint: closed.url }).sendCode('13800138004', refusedCode))).toBe('failed');
    const logged = lines.slice(before).map((line) => JSON.parse(line));
    expect(logged.map((entry) => [entry.level, entry.provider, entry.providerCode, entry.mobile])).toEqual([
      [40, 'aliyun', 'isv.BUSINESS_LIMIT_CONTROL', '138****8004'],
      [50, 'aliyun', 'ECONNREFUSED', '138****8004'],
    ]);
    expect(logged[1].detail).toContain('TemplateParam');
    for (const line of lines.map(withoutTime)) {
      expect(line).not.toContain(code);
      expect(line).not.toContain(refusedCode);
    }
  });
});

describe('Tencent Cloud SendSms through the official SDK, against a double of sms.tencentcloudapi.com', () => {
  let double: TencentSmsDouble;
  const { log, lines } = capturedLog();
  const gateway = (overrides: Partial<SmsGatewayConfig & { sdkAppId: string }> = {}) =>
    new TencentSmsProvider({ ...double.settings, timeoutMs: 2000, ...overrides }, log);
  beforeAll(async () => {
    double = await startTencentSmsDouble();
  });
  afterAll(() => double.close());

  it('sends SendSms 2021-01-11 with +86 numbers, the documented parameters and a valid TC3-HMAC-SHA256 signature', async () => {
    const code = nextCode();
    await gateway().sendCode('13900139000', code);
    expect(double.rejections).toEqual([]);
    expect(double.requests.at(-1)).toEqual({
      region: 'ap-guangzhou',
      phoneNumberSet: ['+8613900139000'],
      smsSdkAppId: '1400006666',
      signName: '画坊',
      templateId: '1110',
      templateParamSet: [code],
    });
    expect(double.lastCodeTo('13900139000')).toBe(code);
  });

  it('reads the per-number SendStatus of a call that succeeded, and the Error of a call that did not', async () => {
    const cases: [TencentSmsFailure, SmsFailure][] = [
      [{ status: 'LimitExceeded.PhoneNumberDailyLimit' }, 'throttled'],
      [{ status: 'LimitExceeded.PhoneNumberThirtySecondLimit' }, 'throttled'],
      [{ error: 'LimitExceeded.DeliveryFrequencyLimit' }, 'throttled'],
      [{ error: 'RequestLimitExceeded' }, 'throttled'],
      [{ status: 'InvalidParameterValue.IncorrectPhoneNumber' }, 'mobile-rejected'],
      [{ status: 'FailedOperation.PhoneNumberInBlacklist' }, 'mobile-rejected'],
      [{ error: 'FailedOperation.InsufficientBalanceInSmsPackage' }, 'failed'],
      [{ error: 'LimitExceeded.AppDailyLimit' }, 'failed'],
      [{ error: 'InternalError.Timeout' }, 'failed'],
      ['http-502', 'failed'],
      ['reset', 'failed'],
    ];
    for (const [failure, expected] of cases) {
      double.failNext(failure);
      expect(await outcome(gateway().sendCode('13900139001', nextCode())), JSON.stringify(failure)).toBe(expected);
    }
    expect(double.rejections).toEqual([]);
    expect(lines.slice(-cases.length).map((line) => JSON.parse(line).providerCode)).toEqual([
      'LimitExceeded.PhoneNumberDailyLimit',
      'LimitExceeded.PhoneNumberThirtySecondLimit',
      'LimitExceeded.DeliveryFrequencyLimit',
      'RequestLimitExceeded',
      'InvalidParameterValue.IncorrectPhoneNumber',
      'FailedOperation.PhoneNumberInBlacklist',
      'FailedOperation.InsufficientBalanceInSmsPackage',
      'LimitExceeded.AppDailyLimit',
      'InternalError.Timeout',
      'HTTP 502',
      'RequestFailed',
    ]);
  });

  it("fails on an SdkAppId, signature or template the application does not have, or a wrong key, as Tencent's checks answer", async () => {
    const attempts = [
      gateway({ sdkAppId: '1400000000' }),
      gateway({ signName: '别家' }),
      gateway({ templateCode: '9999' }),
      gateway({ accessKeySecret: 'wrong' }),
      gateway({ accessKeyId: 'AKIDNobody' }),
    ];
    for (const provider of attempts) expect(await outcome(provider.sendCode('13900139002', nextCode()))).toBe('failed');
    expect(lines.slice(-attempts.length).map((line) => JSON.parse(line).providerCode)).toEqual([
      'UnauthorizedOperation.SmsSdkAppIdVerifyFail',
      'FailedOperation.SignatureIncorrectOrUnapproved',
      'FailedOperation.TemplateIncorrectOrUnapproved',
      'AuthFailure.SignatureFailure',
      'AuthFailure.SecretIdNotFound',
    ]);
    expect(double.rejections).toEqual([
      'AuthFailure.SignatureFailure: the signature does not match',
      'AuthFailure.SecretIdNotFound: unknown SecretId',
    ]);
    double.rejections.length = 0;
  });

  it('gives up after the timeout when the provider does not answer', async () => {
    double.failNext('hang');
    const started = Date.now();
    expect(await outcome(gateway({ timeoutMs: 300 }).sendCode('13900139003', nextCode()))).toBe('failed');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("logs the provider's error code, never the verification code", async () => {
    const code = nextCode();
    const before = lines.length;
    double.failNext({ status: 'LimitExceeded.PhoneNumberDailyLimit' });
    await outcome(gateway().sendCode('13900139004', code));
    const closed = await startTencentSmsDouble(double.account);
    await closed.close();
    expect(await outcome(gateway({ endpoint: closed.url }).sendCode('13900139004', code))).toBe('failed');
    const logged = lines.slice(before).map((line) => JSON.parse(line));
    expect(logged.map((entry) => [entry.level, entry.provider, entry.providerCode, entry.mobile])).toEqual([
      [40, 'tencent', 'LimitExceeded.PhoneNumberDailyLimit', '139****9004'],
      [50, 'tencent', 'RequestFailed', '139****9004'],
    ]);
    expect(logged[1].detail).toMatch(/ECONNREFUSED/);
    for (const line of lines.map(withoutTime)) expect(line).not.toContain(code);
  });
});
