import type { IncomingMessage, ServerResponse } from 'node:http';
import { header, type ModerationDouble, moderationRecord, playTransportFailure } from './provider-double.js';
import { acceptedCall, answerTencent, checkTc3Signature, Refusal, tencentGateway } from './tencent-tc3.js';

/**
 * A stand-in for Tencent Cloud 内容安全 (API 3.0, version 2020-12-29) on 127.0.0.1, answering the two calls the
 * way the documentation describes them (cloud.tencent.com/document/api/1124/51860 TextModeration,
 * /document/api/1125/53273 ImageModeration, 签名方法 v3):
 * - the request: POST / with a JSON body, X-TC-Action TextModeration or ImageModeration, X-TC-Version 2020-12-29,
 *   X-TC-Region, X-TC-Timestamp; TextModeration carries Content (the UTF-8 text in Base64), ImageModeration
 *   FileContent (the image in Base64, at most 10 MB) or FileUrl; both may carry DataId (at most 64 of
 *   letters, digits, _ - @ #);
 * - the signature: `Authorization: TC3-HMAC-SHA256 Credential=<SecretId>/<UTC date>/<service>/tc3_request,
 *   SignedHeaders=content-type;host, Signature=<hex>`, recomputed here with the secret key. The service is the
 *   first label of the host that was called (tms / ims on tencentcloudapi.com; "127" for this double, which is
 *   what the SDK derives from such an endpoint);
 * - the answers, HTTP 200: `{Response: {Suggestion: Pass|Review|Block, Label, SubLabel, Score, …, RequestId}}`, and
 *   a refusal of the call as `{Response: {Error: {Code, Message}, RequestId}}`.
 * What it decides: a text containing one of `blockWords` is Block / Porn, one of `reviewWords` Review / Ad; an
 * image passes. `answerNext` sets the next answer of an action (a verdict, an error, a 502, no answer at all).
 */

export type TencentModerationAccount = { secretId: string; secretKey: string };

export type ModerationAction = 'TextModeration' | 'ImageModeration';

/** A request that passed the API checks (key, signature, action, version, body). */
export type TencentModerationRequest = {
  action: ModerationAction;
  region: string;
  /** The host the SDK signed for: the service label it derived from the endpoint. */
  service: string;
  dataId: string | undefined;
  /** TextModeration: the decoded text. */
  text?: string;
  /** ImageModeration: the decoded image bytes. */
  image?: Buffer;
};

export type TencentModerationVerdict = { Suggestion: 'Pass' | 'Review' | 'Block'; Label: string; SubLabel?: string };

/** What the next call of an action answers instead of the double's own decision. */
export type TencentModerationAnswer = TencentModerationVerdict | { error: string } | 'http-502' | 'hang';

export type TencentModerationDouble = ModerationDouble<
  TencentModerationAccount,
  TencentModerationRequest,
  ModerationAction,
  TencentModerationAnswer
>;

const MESSAGES: Record<string, string> = {
  'UnauthorizedOperation.Unauthorized': '未开通权限/无有效套餐包/账号已欠费。',
  'InternalError.ErrTextTimeOut': '请求超时',
  'InvalidParameterValue.ErrFileContent': 'FileContent不可用，传入的Base64编码无法转换成标准utf8内容',
  'InvalidParameter.ImageSizeTooSmall': '图片尺寸过小',
  'LimitExceeded.RequestLimitExceeded': '请求的次数超过了频率限制',
};

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const IMAGE_MAGIC = [Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('RIFF')];

/** The API's checks of method, action, version, region and body; returns the parameters. */
function checkRequest(req: IncomingMessage, body: Buffer): Omit<TencentModerationRequest, 'service'> {
  if (req.method !== 'POST' || (req.url ?? '/') !== '/') {
    throw new Refusal('InvalidRequest', `${req.method} ${req.url}`);
  }
  if (!header(req, 'content-type').startsWith('application/json')) {
    throw new Refusal('InvalidParameter', `content-type ${header(req, 'content-type')}`);
  }
  const action = header(req, 'x-tc-action');
  if (action !== 'TextModeration' && action !== 'ImageModeration') {
    throw new Refusal('InvalidAction', `action ${action}`);
  }
  if (header(req, 'x-tc-version') !== '2020-12-29') {
    throw new Refusal('NoSuchVersion', `version ${header(req, 'x-tc-version')}`);
  }
  const region = header(req, 'x-tc-region');
  if (!region) throw new Refusal('MissingParameter', `X-TC-Region is required for ${action}`);
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new Refusal('FailedOperation.JsonParseFail', 'the body is not JSON');
  }
  const dataId = parsed.DataId;
  if (dataId !== undefined && (typeof dataId !== 'string' || !/^[\w\-@#]{1,64}$/.test(dataId))) {
    throw new Refusal('InvalidParameterValue.ErrDataId', `DataId ${String(dataId)}`);
  }
  const base64 = (name: string) => {
    const value = parsed[name];
    if (typeof value !== 'string' || !value) throw new Refusal('MissingParameter', `${name} is required`);
    if (!BASE64.test(value) || value.length % 4 !== 0) {
      throw new Refusal('InvalidParameterValue.ErrFileContent', `${name} is not Base64`);
    }
    return Buffer.from(value, 'base64');
  };
  if (action === 'TextModeration') {
    const text = base64('Content');
    if (text.toString('utf8').length > 10_000) throw new Refusal('InvalidParameterValue.ErrTextContentLen', 'long');
    return { action, region, dataId, text: text.toString('utf8') };
  }
  if (parsed.FileUrl !== undefined) throw new Refusal('InvalidParameter', 'this double takes FileContent only');
  const image = base64('FileContent');
  if (image.length > 10 * 1024 * 1024 * 0.75) throw new Refusal('InvalidParameterValue.ErrFileContent', 'too big');
  if (!IMAGE_MAGIC.some((magic) => image.subarray(0, magic.length).equals(magic))) {
    throw new Refusal('InvalidParameterValue.ErrFileContent', 'FileContent is not a PNG, JPEG or WebP image');
  }
  return { action, region, dataId, image };
}

export async function startTencentModerationDouble(
  account: TencentModerationAccount,
  words: { blockWords?: string[]; reviewWords?: string[] } = {},
): Promise<TencentModerationDouble> {
  const {
    requests,
    rejections,
    next: queuedAnswer,
    serve,
  } = moderationRecord<TencentModerationAccount, TencentModerationRequest, ModerationAction, TencentModerationAnswer>();

  const refuseCall = (res: ServerResponse, code: string) =>
    answerTencent(res, { Error: { Code: code, Message: MESSAGES[code] ?? code } });

  const ownVerdict = (call: TencentModerationRequest): TencentModerationVerdict & { Keywords?: string[] } => {
    const text = call.text ?? '';
    const blocked = (words.blockWords ?? []).filter((word) => text.includes(word));
    if (blocked.length > 0) return { Suggestion: 'Block', Label: 'Porn', SubLabel: 'PornText', Keywords: blocked };
    const review = (words.reviewWords ?? []).filter((word) => text.includes(word));
    if (review.length > 0) return { Suggestion: 'Review', Label: 'Ad', SubLabel: 'QRCode', Keywords: review };
    return { Suggestion: 'Pass', Label: 'Normal' };
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const call = acceptedCall(res, { requests, rejections }, () => {
      const params = checkRequest(req, body);
      return { ...params, service: checkTc3Signature(req, body, account) };
    });
    if (!call) return;
    const next = queuedAnswer(call.action);
    if (playTransportFailure(req, res, next)) return;
    if (next && 'error' in next) return refuseCall(res, next.error);
    const verdict = next ?? ownVerdict(call);
    answerTencent(res, {
      BizType: '',
      DataId: call.dataId ?? '',
      Score: verdict.Suggestion === 'Pass' ? 0 : 97,
      SubLabel: '',
      ...verdict,
      ...(call.action === 'ImageModeration'
        ? { LabelResults: [], ObjectResults: [], OcrResults: [], LibResults: [], FileMD5: '', Extra: '' }
        : { DetailResults: [], RiskDetails: [], Extra: '', ContextText: '' }),
    });
  };

  return serve(handle, account, (url) => tencentGateway(account, url));
}
