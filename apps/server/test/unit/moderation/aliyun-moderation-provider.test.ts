import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ModerationGatewayConfig } from '../../../src/config.js';
import { workImageLink } from '../../../src/features/moderation/publication-gate.js';
import {
  AliyunModerationProvider,
  aliyunEndpoint,
  aliyunVerdict,
} from '../../../src/platform/moderation/aliyun-moderation-provider.js';
import {
  type ModerationFailure,
  ModerationUnavailableError,
} from '../../../src/platform/moderation/moderation-provider.js';
import { UrlSigner } from '../../../src/platform/url-signer.js';
import {
  type AliyunModerationAnswer,
  type AliyunModerationDouble,
  startAliyunModerationDouble,
} from '../../doubles/aliyun-moderation-double.js';
import { capturedLog, resultOrFailure } from '../../doubles/provider-test-kit.js';

/** The failure a check ended with, or its verdict. */
const outcome = <T>(check: Promise<T>) => resultOrFailure(check, ModerationUnavailableError);

describe('Aliyun verdicts', () => {
  it('reads RiskLevel and the labels into a decision and a Chinese reason', () => {
    expect(aliyunVerdict({ RiskLevel: 'none', Result: [{ Label: 'nonLabel', Description: '未检测出风险' }] })).toEqual({
      decision: 'pass',
      label: '正常',
      code: '',
      detail: 'RiskLevel none',
    });
    expect(
      aliyunVerdict({
        RiskLevel: 'high',
        Result: [
          { Label: 'political_entity', Confidence: 61.5 },
          { Label: 'pornographic_adult', Confidence: 98.2, RiskWords: '甲,乙' },
        ],
      }),
    ).toEqual({
      decision: 'block',
      label: '色情',
      code: 'pornographic_adult',
      detail: 'RiskLevel high；political_entity 61.5；pornographic_adult 98.2；关键词：甲、乙',
    });
    expect(aliyunVerdict({ RiskLevel: 'medium', Result: [{ Label: 'pt_to_contact', Confidence: 70 }] })).toMatchObject({
      decision: 'review',
      label: '广告引流',
    });
    expect(aliyunVerdict({ RiskLevel: 'medium', Result: [{ Label: 'violent_explosion' }] })).toMatchObject({
      label: '暴恐',
    });
    // Low risk passes, as Aliyun's guide advises; the label is kept for the record.
    expect(aliyunVerdict({ RiskLevel: 'low', Result: [{ Label: 'sexual_suggestive', Confidence: 30 }] })).toMatchObject(
      {
        decision: 'pass',
        label: '正常',
        code: 'sexual_suggestive',
      },
    );
    // A label the table does not know keeps its code; a risk level it does not know goes to a person.
    expect(aliyunVerdict({ RiskLevel: 'high', Result: [{ Label: 'gamble_x' }] })).toMatchObject({
      label: '其他（gamble_x）',
    });
    expect(aliyunVerdict({ RiskLevel: 'severe', Result: [] })).toMatchObject({ decision: 'review', label: '其他' });
    expect(aliyunVerdict({})).toMatchObject({ decision: 'review' });
  });

  it('takes the region endpoint of 内容安全增强版 unless MODERATION_ENDPOINT names another', () => {
    expect(aliyunEndpoint(undefined, 'cn-shanghai')).toEqual({
      host: 'green-cip.cn-shanghai.aliyuncs.com',
      protocol: 'https',
    });
    expect(aliyunEndpoint('https://green-cip-vpc.cn-beijing.aliyuncs.com', 'cn-shanghai')).toEqual({
      host: 'green-cip-vpc.cn-beijing.aliyuncs.com',
      protocol: 'https',
    });
    expect(aliyunEndpoint('http://127.0.0.1:8080', 'cn-shanghai')).toEqual({
      host: '127.0.0.1:8080',
      protocol: 'http',
    });
  });
});

describe('Aliyun TextModerationPlus and ImageModeration through @alicloud/openapi-core, against a double', () => {
  let double: AliyunModerationDouble;
  let png: Buffer;
  /** The site: serves the work image only on a valid signed link, as /api/works/image/:id does. */
  let site: Server;
  let siteUrl: string;
  const signer = new UrlSigner(Buffer.from('a-signing-secret-for-the-test'), 60_000);
  const siteFetches: string[] = [];
  const { log, lines } = capturedLog();
  const provider = (overrides: Partial<ModerationGatewayConfig> = {}) =>
    new AliyunModerationProvider({ ...double.settings, timeoutMs: 1000, ...overrides }, log);
  const link = (workId: string) => () => workImageLink(signer, siteUrl)(workId);

  beforeAll(async () => {
    double = await startAliyunModerationDouble(
      { accessKeyId: 'LTAIHuafangModeration', accessKeySecret: 'aliyun-moderation-secret' },
      { blockWords: ['违禁词'], reviewWords: ['加微信'] },
    );
    png = await sharp({ create: { width: 300, height: 260, channels: 3, background: '#4a7' } })
      .png()
      .toBuffer();
    site = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      siteFetches.push(url.pathname);
      if (
        !signer.verify(url.pathname, url.searchParams.get('e') ?? undefined, url.searchParams.get('s') ?? undefined)
      ) {
        res.writeHead(403).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  });
  afterEach(() => double.reset());
  afterAll(async () => {
    await double.close();
    await new Promise<void>((resolve) => site.close(() => resolve()));
  });

  it('sends TextModerationPlus 2022-03-02 (llm_query_moderation) with content and dataId, signed ACS3-HMAC-SHA256', async () => {
    expect(await provider().checkText('一只猫，水墨风格', 'work_1')).toMatchObject({ decision: 'pass', label: '正常' });
    expect(double.rejections).toEqual([]);
    expect(double.requests.at(-1)).toEqual({
      action: 'TextModerationPlus',
      service: 'llm_query_moderation',
      dataId: 'work_1',
      content: '一只猫，水墨风格',
    });
    expect(await provider().checkText('这里有违禁词', 'work_2')).toMatchObject({
      decision: 'block',
      label: '色情',
      code: 'pornographic_adult',
      detail: expect.stringContaining('关键词：违禁词'),
    });
    expect(await provider().checkText('扫码加微信', 'work_3')).toMatchObject({ decision: 'review', label: '广告引流' });
    // Longer than the service takes: the first 2000 characters go.
    await provider().checkText('山'.repeat(2500), 'work_4');
    expect(double.requests.at(-1)?.content).toHaveLength(2000);
    expect(double.rejections).toEqual([]);
  });

  it('sends ImageModeration (baselineCheck) with a signed link Aliyun can fetch, not the bytes', async () => {
    expect(await provider().checkImage(png, 'w9', link('w9'))).toMatchObject({ decision: 'pass', label: '正常' });
    const call = double.requests.at(-1);
    expect(call).toMatchObject({ action: 'ImageModeration', service: 'baselineCheck', dataId: 'w9' });
    expect(call?.imageUrl).toMatch(new RegExp(`^${siteUrl}/api/works/image/w9\\?e=\\d+&s=[\\w-]+$`));
    expect(call?.fetched).toMatchObject({ status: 200, contentType: 'image/png' });
    expect(call?.fetched && 'body' in call.fetched && call.fetched.body.equals(png)).toBe(true);
    expect(siteFetches.at(-1)).toBe('/api/works/image/w9');

    double.answerNext('ImageModeration', { RiskLevel: 'high', Label: 'pornographic_adultContent' });
    expect(await provider().checkImage(png, 'w9', link('w9'))).toMatchObject({ decision: 'block', label: '色情' });
    double.answerNext('ImageModeration', { RiskLevel: 'medium', Label: 'sexual_suggestiveContent' });
    expect(await provider().checkImage(png, 'w9', link('w9'))).toMatchObject({ decision: 'review', label: '性感低俗' });
    expect(double.rejections).toEqual([]);
  });

  it('asks for a fresh link on every check', async () => {
    let asked = 0;
    const counting = () => {
      asked += 1;
      return link('w1')();
    };
    await provider().checkImage(png, 'w1', counting);
    await provider().checkImage(png, 'w1', counting);
    expect(asked).toBe(2);
  });

  it('gives no verdict on an error Code, HTTP 5xx, a link it cannot fetch, a wrong key or no answer in time', async () => {
    const cases: [AliyunModerationAnswer, ModerationFailure][] = [
      [{ code: 408 }, 'failed'],
      [{ code: 588 }, 'failed'],
      [{ status: 503, code: 'ServiceUnavailable' }, 'failed'],
      ['html-502', 'failed'],
      ['hang', 'timeout'],
    ];
    for (const [answer, failure] of cases) {
      double.answerNext('ImageModeration', answer);
      const started = Date.now();
      expect(await outcome(provider().checkImage(png, 'w', link('w'))), JSON.stringify(answer)).toBe(failure);
      expect(Date.now() - started).toBeLessThan(3000);
    }
    double.answerNext('TextModerationPlus', { code: 408 });
    expect(await outcome(provider().checkText('x', 'w'))).toBe('failed');
    double.answerNext('TextModerationPlus', 'hang');
    expect(await outcome(provider().checkText('x', 'w'))).toBe('timeout');

    // A link whose signature does not verify: the site answers 403, Aliyun 480 (download failed).
    const forged = () => `${siteUrl}/api/works/image/w?e=9999999999&s=forged`;
    expect(await outcome(provider().checkImage(png, 'w', forged))).toBe('failed');
    // No public address to build the link on: no call at all.
    const before = double.requests.length;
    expect(await outcome(provider().checkImage(png, 'w', () => workImageLink(signer, undefined)('w')))).toBe('failed');
    expect(double.requests).toHaveLength(before);

    expect(await outcome(provider({ accessKeySecret: 'wrong' }).checkText('x', 'w'))).toBe('failed');
    expect(double.rejections.at(-1)).toMatch(/^SignatureDoesNotMatch/);
    const closed = await startAliyunModerationDouble(double.account);
    await closed.close();
    expect(await outcome(provider({ endpoint: closed.url }).checkText('x', 'w'))).toBe('failed');

    const logged = lines.map((line) => JSON.parse(line));
    expect(logged.map((entry) => entry.providerCode)).toEqual(
      expect.arrayContaining(['408', '588', '480', 'ServiceUnavailable', 'SignatureDoesNotMatch']),
    );
    expect(logged.find((entry) => entry.failure === 'timeout')).toMatchObject({
      provider: 'aliyun',
      action: 'ImageModeration',
      msg: 'content moderation gave no verdict',
    });
    expect(logged.find((entry) => entry.providerCode === '408')).toMatchObject({
      detail: expect.stringContaining('No permissions.'),
    });
    // The secret never reaches the log.
    expect(lines.join('\n')).not.toContain(double.account.accessKeySecret);
  });
});
