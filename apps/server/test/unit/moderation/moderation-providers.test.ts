import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ModerationGatewayConfig } from '../../../src/config.js';
import {
  type ModerationFailure,
  ModerationUnavailableError,
  NoModerationProvider,
} from '../../../src/platform/moderation/moderation-provider.js';
import {
  serviceEndpoint,
  TencentModerationProvider,
  tencentVerdict,
} from '../../../src/platform/moderation/tencent-moderation-provider.js';
import { capturedLog, resultOrFailure } from '../../doubles/provider-test-kit.js';
import {
  startTencentModerationDouble,
  type TencentModerationAnswer,
  type TencentModerationDouble,
} from '../../doubles/tencent-moderation-double.js';

/** The failure a check ended with, or its verdict. */
const outcome = <T>(check: Promise<T>) => resultOrFailure(check, ModerationUnavailableError);

describe('moderation verdicts', () => {
  it('passes everything without a call when moderation is off', async () => {
    const none = new NoModerationProvider();
    expect(none.enabled).toBe(false);
    expect(await none.checkText()).toMatchObject({ decision: 'pass' });
    expect(await none.checkImage()).toMatchObject({ decision: 'pass' });
  });

  it("reads Tencent's Suggestion and Label into a decision and a Chinese reason", () => {
    expect(tencentVerdict({ Suggestion: 'Pass', Label: 'Normal', Score: 0 })).toEqual({
      decision: 'pass',
      label: '正常',
      code: 'Normal',
      detail: 'Normal 0',
    });
    expect(tencentVerdict({ Suggestion: 'Block', Label: 'Porn', SubLabel: 'SexBehavior', Score: 99 })).toEqual({
      decision: 'block',
      label: '色情',
      code: 'Porn',
      detail: 'Porn/SexBehavior 99',
    });
    expect(tencentVerdict({ Suggestion: 'Review', Label: 'Polity', Keywords: ['甲', '乙'] })).toMatchObject({
      decision: 'review',
      label: '涉政',
      detail: 'Polity 关键词：甲、乙',
    });
    // A label the table does not know keeps its code; a suggestion it does not know goes to a person.
    expect(tencentVerdict({ Suggestion: 'Block', Label: 'Gamble' })).toMatchObject({ label: '其他（Gamble）' });
    expect(tencentVerdict({ Suggestion: 'Maybe', Label: 'Ad' })).toMatchObject({
      decision: 'review',
      label: '广告引流',
    });
  });
});

describe('Tencent TMS and IMS through the official SDKs, against a double of the API', () => {
  let double: TencentModerationDouble;
  let png: Buffer;
  const { log, lines } = capturedLog();
  const provider = (overrides: Partial<ModerationGatewayConfig> = {}) =>
    new TencentModerationProvider({ ...double.settings, timeoutMs: 1000, ...overrides }, log);
  beforeAll(async () => {
    double = await startTencentModerationDouble(
      { secretId: 'AKIDHuafangModeration', secretKey: 'tencent-moderation-secret' },
      { blockWords: ['违禁词'], reviewWords: ['加微信'] },
    );
    png = await sharp({ create: { width: 300, height: 260, channels: 3, background: '#4a7' } })
      .png()
      .toBuffer();
  });
  afterEach(() => double.reset());
  afterAll(() => double.close());

  it('sends TextModeration 2020-12-29 with the text in Base64, signed TC3-HMAC-SHA256', async () => {
    const verdict = await provider().checkText('一只猫，水墨风格', 'work_1');
    expect(verdict).toMatchObject({ decision: 'pass', label: '正常' });
    expect(double.rejections).toEqual([]);
    expect(double.requests.at(-1)).toMatchObject({
      action: 'TextModeration',
      region: 'ap-guangzhou',
      service: '127',
      dataId: 'work_1',
      text: '一只猫，水墨风格',
    });
    expect(await provider().checkText('这里有违禁词', 'work_2')).toMatchObject({
      decision: 'block',
      label: '色情',
      detail: expect.stringContaining('关键词：违禁词'),
    });
    expect(await provider().checkText('扫码加微信', 'work_3')).toMatchObject({ decision: 'review', label: '广告引流' });
  });

  it('sends ImageModeration with the image bytes as FileContent, and reads its verdicts', async () => {
    expect(await provider().checkImage(png, 'work-9')).toMatchObject({ decision: 'pass' });
    const call = double.requests.at(-1);
    expect(call).toMatchObject({ action: 'ImageModeration', dataId: 'work-9' });
    expect(call?.image?.equals(png)).toBe(true);
    double.answerNext('ImageModeration', { Suggestion: 'Block', Label: 'Porn', SubLabel: 'SexBehavior' });
    expect(await provider().checkImage(png, 'work-9')).toMatchObject({ decision: 'block', label: '色情' });
    double.answerNext('ImageModeration', { Suggestion: 'Review', Label: 'Sexy' });
    expect(await provider().checkImage(png, 'work-9')).toMatchObject({ decision: 'review', label: '性感低俗' });
    expect(double.rejections).toEqual([]);
  });

  it('keeps a DataId Tencent accepts', async () => {
    await provider().checkText('hello', 'a.b/c d');
    expect(double.requests.at(-1)?.dataId).toBe('a_b_c_d');
  });

  it('puts the service label into an endpoint template ({service} becomes tms or ims)', () => {
    const template = 'https://{service}.ap-shanghai.tencentcloudapi.com';
    expect(serviceEndpoint(template, 'tms')?.host).toBe('tms.ap-shanghai.tencentcloudapi.com');
    expect(serviceEndpoint(template, 'ims')?.host).toBe('ims.ap-shanghai.tencentcloudapi.com');
    expect(serviceEndpoint(double.url, 'ims')?.host).toBe(new URL(double.url).host);
    expect(serviceEndpoint(undefined, 'tms')).toBeUndefined();
  });

  it('gives no verdict on an error, a 502, a dropped key or a provider that does not answer in time', async () => {
    const cases: [TencentModerationAnswer, ModerationFailure][] = [
      [{ error: 'UnauthorizedOperation.Unauthorized' }, 'failed'],
      [{ error: 'LimitExceeded.RequestLimitExceeded' }, 'failed'],
      ['http-502', 'failed'],
      ['hang', 'timeout'],
    ];
    for (const [answer, failure] of cases) {
      double.answerNext('ImageModeration', answer);
      const started = Date.now();
      expect(await outcome(provider().checkImage(png, 'w')), JSON.stringify(answer)).toBe(failure);
      expect(Date.now() - started).toBeLessThan(3000);
    }
    expect(await outcome(provider({ accessKeySecret: 'wrong' }).checkText('x', 'w'))).toBe('failed');
    expect(double.rejections.at(-1)).toMatch(/^AuthFailure.SignatureFailure/);
    const closed = await startTencentModerationDouble(double.account);
    await closed.close();
    expect(await outcome(provider({ endpoint: closed.url }).checkText('x', 'w'))).toBe('failed');

    const logged = lines.map((line) => JSON.parse(line));
    expect(logged.map((entry) => entry.providerCode)).toEqual(
      expect.arrayContaining(['UnauthorizedOperation.Unauthorized', 'HTTP 502', 'AuthFailure.SignatureFailure']),
    );
    expect(logged.find((entry) => entry.failure === 'timeout')).toMatchObject({
      provider: 'tencent',
      action: 'ImageModeration',
      msg: 'content moderation gave no verdict',
    });
    // The secret key never reaches the log.
    expect(lines.join('\n')).not.toContain(double.account.secretKey);
  });
});
