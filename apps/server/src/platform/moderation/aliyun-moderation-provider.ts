import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import type { ModerationGatewayConfig } from '../../config.js';
import {
  checkWithin,
  type ModerationDecision,
  type ModerationProvider,
  type ModerationVerdict,
} from './moderation-provider.js';

// CommonJS with an `exports.default` class, as for the SMS SDK: require() gives the same object under Node and vitest.
const require = createRequire(import.meta.url);
const { default: OpenApiClient, $OpenApiUtil } =
  require('@alicloud/openapi-core') as typeof import('@alicloud/openapi-core');
type RuntimeOptions = Parameters<InstanceType<typeof OpenApiClient>['callApi']>[2];

/** API version of 内容安全增强版 (product Green); both actions below belong to it. */
export const ALIYUN_MODERATION_VERSION = '2022-03-02';
/** TextModerationPlus service for the prompts of a generative model (大语言模型输入文字检测, at most 2000 characters). */
export const ALIYUN_TEXT_SERVICE = 'llm_query_moderation';
/** ImageModeration service 通用基线检测. */
export const ALIYUN_IMAGE_SERVICE = 'baselineCheck';
const TEXT_MAX = 2000;

/**
 * Aliyun's labels are fine-grained (pornographic_adult, political_figure, violent_explosion, pt_to_contact…, over
 * 60 for text and more for images); their first part names the category, which the author and the queue read in
 * Chinese. The full label stays in `code` and `detail`.
 */
export const ALIYUN_LABEL_CATEGORIES: [prefix: string, label: string][] = [
  ['pornographic', '色情'],
  ['sexual', '性感低俗'],
  ['political', '涉政'],
  ['violent', '暴恐'],
  ['contraband', '违禁'],
  ['inappropriate', '不良内容'],
  ['religion', '宗教'],
  ['pt_', '广告引流'],
  ['C_customized', '自定义违规'],
  ['customized', '自定义违规'],
];

/** `nonLabel` (and `nonLabel_lib`, an image on the account's exempt list) is Aliyun's "nothing found". */
const isRiskLabel = (label: string) => label !== '' && !label.startsWith('nonLabel');

export function aliyunLabel(code: string): string {
  const category = ALIYUN_LABEL_CATEGORIES.find(([prefix]) => code.startsWith(prefix));
  if (category) return category[1];
  return code ? `其他（${code}）` : '其他';
}

/**
 * RiskLevel as Aliyun's integration guide advises acting on it: high is blocked, medium goes to a person, low and
 * none pass. Anything else (a new value, none given) goes to a person.
 */
function decisionOf(riskLevel: string | undefined): ModerationDecision {
  if (riskLevel === 'high') return 'block';
  if (riskLevel === 'low' || riskLevel === 'none') return 'pass';
  return 'review';
}

type AliyunResult = { Label?: string; Confidence?: number; RiskWords?: string; Description?: string };
export type AliyunAnswerData = { RiskLevel?: string; Result?: AliyunResult[]; DataId?: string };

export function aliyunVerdict(data: AliyunAnswerData): ModerationVerdict {
  const decision = decisionOf(data.RiskLevel);
  const risks = (data.Result ?? []).filter((result) => isRiskLabel(result.Label ?? ''));
  // The most confident label names the reason.
  const top = [...risks].sort((a, b) => (b.Confidence ?? 0) - (a.Confidence ?? 0))[0];
  const code = top?.Label ?? '';
  const words = [...new Set(risks.flatMap((result) => (result.RiskWords ?? '').split(',')).filter(Boolean))];
  const detail = [
    data.RiskLevel ? `RiskLevel ${data.RiskLevel}` : '',
    ...risks.map((result) =>
      [result.Label, result.Confidence === undefined ? '' : String(result.Confidence)].filter(Boolean).join(' '),
    ),
    words.length ? `关键词：${words.slice(0, 10).join('、')}` : '',
  ]
    .filter(Boolean)
    .join('；');
  if (decision === 'pass') return { decision, label: '正常', code, detail };
  return { decision, label: aliyunLabel(code), code, detail };
}

/** The dataId Aliyun keeps with the check, at most 64 characters (a work id is 16 of base64url). */
const dataIdOf = (id: string) => id.slice(0, 64);

/** The host MODERATION_ENDPOINT names, else the region's public endpoint of 内容安全增强版. */
export function aliyunEndpoint(endpoint: string | undefined, region: string): { host: string; protocol: string } {
  if (!endpoint) return { host: `green-cip.${region}.aliyuncs.com`, protocol: 'https' };
  const url = new URL(endpoint);
  return { host: url.host, protocol: url.protocol.slice(0, -1) };
}

/** A call the provider answered (HTTP 200) without a verdict: its Code is not 200. */
class AliyunRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AliyunRefusal';
  }
}

type AliyunBody = { Code?: number | string; Msg?: string; Message?: string; Data?: AliyunAnswerData };

/**
 * Aliyun 内容安全增强版 (product Green, API 2022-03-02) through the generic client of the official SDK core
 * (`@alicloud/openapi-core`, the one the generated SDK @alicloud/green20220302 wraps; that package is not in this
 * project's registry). The client signs with ACS3-HMAC-SHA256 (action and version in x-acs-* headers) and sends
 * Service and ServiceParameters (a JSON string) as a form body, as the generated SDK does:
 * - prompts: TextModerationPlus, service `llm_query_moderation`, `{"content", "dataId"}`;
 * - images: ImageModeration, service `baselineCheck`, `{"imageUrl", "dataId"}`. Aliyun fetches the image
 *   itself: the link is this site's signed, expiring link to the original, absolute on PUBLIC_BASE_URL.
 * Both answer `{Code, Msg|Message, Data: {RiskLevel, Result: [{Label, Confidence, …}], DataId}, RequestId}`; a Code
 * other than 200 (408 no permission, 588 over quota, 592 image download timed out…) is no verdict. No retries.
 */
export class AliyunModerationProvider implements ModerationProvider {
  readonly name = 'aliyun';
  readonly enabled = true;
  private readonly client: InstanceType<typeof OpenApiClient>;

  constructor(
    private readonly options: ModerationGatewayConfig,
    private readonly log: FastifyBaseLogger,
  ) {
    const { host, protocol } = aliyunEndpoint(options.endpoint, options.region);
    this.client = new OpenApiClient(
      new $OpenApiUtil.Config({
        accessKeyId: options.accessKeyId,
        accessKeySecret: options.accessKeySecret,
        regionId: options.region,
        endpoint: host,
        protocol,
        // A second past the deadline below, which is the one that counts; this one only frees the socket.
        connectTimeout: options.timeoutMs + 1000,
        readTimeout: options.timeoutMs + 1000,
      }),
    );
  }

  checkText(text: string, dataId: string): Promise<ModerationVerdict> {
    return this.ask('TextModerationPlus', dataId, () => ({
      Service: ALIYUN_TEXT_SERVICE,
      ServiceParameters: JSON.stringify({ content: text.slice(0, TEXT_MAX), dataId: dataIdOf(dataId) }),
    }));
  }

  checkImage(_image: Buffer, dataId: string, imageUrl: () => string): Promise<ModerationVerdict> {
    return this.ask('ImageModeration', dataId, () => ({
      Service: ALIYUN_IMAGE_SERVICE,
      ServiceParameters: JSON.stringify({ imageUrl: imageUrl(), dataId: dataIdOf(dataId) }),
    }));
  }

  /** One call with its deadline; the SDK takes no signal, so the call is left to finish unheard after it. */
  private ask(
    action: 'TextModerationPlus' | 'ImageModeration',
    dataId: string,
    body: () => Record<string, string>,
  ): Promise<ModerationVerdict> {
    const timeoutMs = this.options.timeoutMs;
    return checkWithin(
      this.log,
      { provider: this.name, action, dataId },
      timeoutMs,
      async (deadline) => {
        const passed = new Promise<never>((_, reject) =>
          deadline.addEventListener('abort', () => reject(new Error(`no answer within ${timeoutMs} ms`))),
        );
        const call = this.client.callApi(
          new $OpenApiUtil.Params({
            action,
            version: ALIYUN_MODERATION_VERSION,
            protocol: 'HTTPS',
            pathname: '/',
            method: 'POST',
            authType: 'AK',
            style: 'RPC',
            reqBodyType: 'formData',
            bodyType: 'json',
          }),
          new $OpenApiUtil.OpenApiRequest({ body: body() }),
          {} as RuntimeOptions,
        );
        call.catch(() => {}); // after the deadline nobody awaits it
        const answer = (await Promise.race([call, passed])).body as AliyunBody | undefined;
        if (Number(answer?.Code) !== 200) {
          throw new AliyunRefusal(String(answer?.Code ?? 'NoCode'), answer?.Msg ?? answer?.Message ?? '');
        }
        return aliyunVerdict(answer?.Data ?? {});
      },
      // A Code other than 200 is an AliyunRefusal; HTTP 4xx/5xx (keys, signature, throttling) carry statusCode.
      (err) => (err as { statusCode?: number }).statusCode,
    );
  }
}
