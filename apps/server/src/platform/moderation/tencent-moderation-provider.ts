import type { FastifyBaseLogger } from 'fastify';
import { ims } from 'tencentcloud-sdk-nodejs-ims';
import { tms } from 'tencentcloud-sdk-nodejs-tms';
import type { ModerationGatewayConfig } from '../../config.js';
import {
  checkWithin,
  type ModerationDecision,
  type ModerationProvider,
  type ModerationVerdict,
} from './moderation-provider.js';

const TmsClient = tms.v20201229.Client;
const ImsClient = ims.v20201229.Client;

/**
 * Tencent's labels (TMS TextModeration and IMS ImageModeration, 2020-12-29: Label, the highest-priority risk of
 * the result) in the words the author and the admin queue read. The documentation lists Normal, Porn, Abuse and
 * Ad "among others"; the rest are those its console and error documents name.
 */
export const TENCENT_LABELS: Record<string, string> = {
  Normal: '正常',
  Porn: '色情',
  Sexy: '性感低俗',
  Abuse: '谩骂',
  Ad: '广告引流',
  Illegal: '违法违规',
  Polity: '涉政',
  Terror: '暴恐',
  Teenager: '危害未成年人',
  Religion: '宗教',
  Spam: '垃圾内容',
  Custom: '自定义违规',
};

/** Suggestion Block / Review / Pass; anything else (a new value) is treated as Review: a person decides. */
function decisionOf(suggestion: string | undefined): ModerationDecision {
  if (suggestion === 'Pass') return 'pass';
  if (suggestion === 'Block') return 'block';
  return 'review';
}

type TencentAnswer = { Suggestion?: string; Label?: string; SubLabel?: string; Score?: number; Keywords?: string[] };

export function tencentVerdict(answer: TencentAnswer): ModerationVerdict {
  const decision = decisionOf(answer.Suggestion);
  const label = answer.Label ?? '';
  const detail = [
    [label, answer.SubLabel].filter(Boolean).join('/'),
    answer.Score === undefined ? '' : String(answer.Score),
    answer.Keywords?.length ? `关键词：${answer.Keywords.slice(0, 10).join('、')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  if (decision === 'pass') return { decision, label: '正常', code: label, detail };
  return { decision, label: TENCENT_LABELS[label] ?? (label ? `其他（${label}）` : '其他'), code: label, detail };
}

/** TMS takes at most 10 000 characters of text. */
const TEXT_MAX = 10_000;

/** MODERATION_ENDPOINT for one service: `{service}` in it becomes tms or ims; unset is the SDK's own endpoint. */
export function serviceEndpoint(endpoint: string | undefined, service: 'tms' | 'ims'): URL | undefined {
  return endpoint ? new URL(endpoint.replaceAll('{service}', service)) : undefined;
}

/** A DataId Tencent accepts: letters, digits and _ - @ #, at most 64. */
const dataIdOf = (id: string) => id.replace(/[^\w\-@#]/g, '_').slice(0, 64);

/**
 * Tencent Cloud 内容安全 through the official SDKs, which sign with TC3-HMAC-SHA256: TMS TextModeration
 * (tms.tencentcloudapi.com) and IMS ImageModeration (ims.tencentcloudapi.com), API version 2020-12-29, with the
 * account's default strategy (no BizType). The SDK names the signing service after the first label of the host,
 * so MODERATION_ENDPOINT, when set, is a template: `{service}` becomes tms or ims
 * (https://{service}.ap-shanghai.tencentcloudapi.com); without it both calls go to the one address (a proxy, or
 * the test double). Images go inline as FileContent (Base64, at most 10 MB): the originals are private and have
 * no URL Tencent could fetch.
 */
export class TencentModerationProvider implements ModerationProvider {
  readonly name = 'tencent';
  readonly enabled = true;
  private readonly text: InstanceType<typeof TmsClient>;
  private readonly image: InstanceType<typeof ImsClient>;

  constructor(
    private readonly options: ModerationGatewayConfig,
    private readonly log: FastifyBaseLogger,
  ) {
    const clientConfig = (service: 'tms' | 'ims') => {
      const endpoint = serviceEndpoint(options.endpoint, service);
      return {
        credential: { secretId: options.accessKeyId, secretKey: options.accessKeySecret },
        region: options.region,
        profile: {
          httpProfile: {
            // Seconds; the SDK's default is 60. The deadline below is the one that counts.
            reqTimeout: Math.ceil(options.timeoutMs / 1000) + 1,
            ...(endpoint ? { endpoint: endpoint.host, protocol: `${endpoint.protocol}//` } : {}),
          },
        },
      };
    };
    this.text = new TmsClient(clientConfig('tms'));
    this.image = new ImsClient(clientConfig('ims'));
  }

  checkText(text: string, dataId: string): Promise<ModerationVerdict> {
    return this.ask('TextModeration', dataId, (signal) =>
      this.text.request(
        'TextModeration',
        {
          Content: Buffer.from(text.slice(0, TEXT_MAX), 'utf8').toString('base64'),
          DataId: dataIdOf(dataId),
        },
        { signal },
      ),
    );
  }

  checkImage(image: Buffer, dataId: string): Promise<ModerationVerdict> {
    return this.ask('ImageModeration', dataId, (signal) =>
      this.image.request(
        'ImageModeration',
        { FileContent: image.toString('base64'), DataId: dataIdOf(dataId) },
        { signal },
      ),
    );
  }

  /** One call with its deadline, which the SDK's request is aborted by. */
  private ask(
    action: string,
    dataId: string,
    call: (signal: AbortSignal) => Promise<unknown>,
  ): Promise<ModerationVerdict> {
    return checkWithin(
      this.log,
      { provider: this.name, action, dataId },
      this.options.timeoutMs,
      async (deadline) => tencentVerdict((await call(deadline)) as TencentAnswer),
      // Response.Error (keys, balance, an unopened service…) carries a Code; a non-200 answer its httpCode.
      (err) => (err as { httpCode?: number }).httpCode,
    );
  }
}
