import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerAliyun, checkAcs3Signature, Refusal } from './aliyun-acs3.js';
import { header, type ModerationDouble, moderationRecord, playTransportFailure } from './provider-double.js';

/**
 * A stand-in for Aliyun 内容安全增强版 (product Green, API version 2022-03-02) on 127.0.0.1, answering the two calls
 * the way the documentation describes them (help.aliyun.com/document_detail/2669858.html TextModerationPlus,
 * /document_detail/2528742.html ImageModeration, /document_detail/3060179.html 公共错误码, and the generated SDK
 * @alicloud/green20220302, which sends both as RPC-style POST / with a form body):
 * - the request: POST /, x-acs-action TextModerationPlus or ImageModeration, x-acs-version 2022-03-02, a form body
 *   (application/x-www-form-urlencoded) with Service and ServiceParameters, a JSON string: `{content, dataId}` for
 *   TextModerationPlus (service llm_query_moderation, at most 2000 characters), `{imageUrl, dataId}` for
 *   ImageModeration (service baselineCheck);
 * - the V3 signature (《V3版本请求体&签名机制》): x-acs-date (UTC, ISO 8601), x-acs-signature-nonce,
 *   x-acs-content-sha256 (hex SHA-256 of the body) and Authorization, checked as in aliyun-acs3.ts;
 * - the answers, HTTP 200: `{Code: 200, Msg|Message, Data: {RiskLevel, Result: [{Label, Confidence, RiskWords?,
 *   Description}], DataId}, RequestId}` (ImageModeration says Msg, TextModerationPlus Message); a refusal of the
 *   call in the body, HTTP 200 with another Code (408 no permission, 588 over quota, 480 download failed…);
 *   gateway refusals (bad key, bad signature, wrong version) as HTTP 4xx with a string Code.
 * ImageModeration fetches the image at imageUrl, as Aliyun does (within 3 s): a link it cannot open is 480.
 * What it decides: a text containing one of `blockWords` is high / pornographic_adult, one of `reviewWords` medium /
 * pt_to_contact; an image it could fetch is none / nonLabel. `answerNext` sets the next answer of an action.
 */

export type AliyunModerationAccount = { accessKeyId: string; accessKeySecret: string };

export type AliyunModerationAction = 'TextModerationPlus' | 'ImageModeration';

/** A request that passed the gateway checks (key, signature, action, version, body). */
export type AliyunModerationRequest = {
  action: AliyunModerationAction;
  service: string;
  dataId: string | undefined;
  /** TextModerationPlus: the text. */
  content?: string;
  /** ImageModeration: the link it was given, and what fetching it gave. */
  imageUrl?: string;
  fetched?: { status: number; contentType: string; body: Buffer } | { error: string };
};

export type AliyunModerationVerdict = { RiskLevel: 'high' | 'medium' | 'low' | 'none'; Label: string };

/**
 * What the next call of an action answers instead of the double's own decision: a verdict, a documented error Code
 * in an HTTP 200 body, an HTTP error with a JSON Code (as the gateway sends), a 502 page of a proxy, or nothing.
 */
export type AliyunModerationAnswer =
  | AliyunModerationVerdict
  | { code: number }
  | { status: number; code: string }
  | 'html-502'
  | 'hang';

export type AliyunModerationDouble = ModerationDouble<
  AliyunModerationAccount,
  AliyunModerationRequest,
  AliyunModerationAction,
  AliyunModerationAnswer
>;

/** The documentation's messages (公共错误码) for the codes tests use. */
const MESSAGES: Record<string, string> = {
  '400': 'BAD_REQUEST',
  '408': 'No permissions.',
  '480': 'DOWNLOAD_FAILED',
  '500': 'GENERAL_ERROR',
  '581': 'TIMEOUT',
  '588': 'EXCEED_QUOTA',
  '592': 'DOWNLOAD_TIMEOUT',
  ServiceUnavailable: 'The request has failed due to a temporary failure of the server.',
};

const SERVICES: Record<AliyunModerationAction, string[]> = {
  TextModerationPlus: [
    'llm_query_moderation',
    'llm_response_moderation',
    'chat_detection_pro',
    'comment_detection_pro',
    'nickname_detection_pro',
    'ugc_moderation_byllm',
    'aigc_moderation_byllm',
    'ad_compliance_detection_pro',
  ],
  ImageModeration: ['baselineCheck', 'baselineCheck_pro', 'tonalityImprove', 'aigcCheck', 'postImageCheck'],
};

const IMAGE_MAGIC = [Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('RIFF')];

/** A refusal by the service: HTTP 200 with a numeric Code in the body. */
class ServiceRefusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The gateway's and the service's checks of method, action, version and parameters; returns the parameters. */
function checkRequest(req: IncomingMessage, url: URL, body: Buffer): Omit<AliyunModerationRequest, 'fetched'> {
  if (req.method !== 'POST') throw new Refusal(400, 'UnsupportedHTTPMethod', `${req.method}`);
  if (url.pathname !== '/') throw new Refusal(404, 'InvalidAction.NotFound', `path ${url.pathname}`);
  const action = header(req, 'x-acs-action');
  if (action !== 'TextModerationPlus' && action !== 'ImageModeration') {
    throw new Refusal(404, 'InvalidAction.NotFound', `Specified api is not found: ${action}`);
  }
  if (header(req, 'x-acs-version') !== '2022-03-02') {
    throw new Refusal(
      400,
      'InvalidVersion',
      `Specified parameter Version is not valid: ${header(req, 'x-acs-version')}`,
    );
  }
  if (!header(req, 'content-type').startsWith('application/x-www-form-urlencoded')) {
    throw new Refusal(400, 'InvalidParameter', `content-type ${header(req, 'content-type')}: a form body is expected`);
  }
  const form = new URLSearchParams(body.toString('utf8'));
  const service = form.get('Service') ?? '';
  if (!SERVICES[action].includes(service)) throw new ServiceRefusal(400, `Service ${service} for ${action}`);
  let parameters: Record<string, unknown>;
  try {
    parameters = JSON.parse(form.get('ServiceParameters') ?? '') as Record<string, unknown>;
  } catch {
    throw new ServiceRefusal(400, 'ServiceParameters is not a JSON string');
  }
  const dataId = parameters.dataId;
  if (dataId !== undefined && (typeof dataId !== 'string' || dataId.length > 64)) {
    throw new ServiceRefusal(400, `dataId ${String(dataId)}`);
  }
  if (action === 'TextModerationPlus') {
    const content = parameters.content;
    if (typeof content !== 'string' || !content.trim()) throw new ServiceRefusal(400, 'content is required');
    if (content.length > 2000) throw new ServiceRefusal(400, 'content is longer than 2000 characters');
    return { action, service, dataId, content };
  }
  const imageUrl = parameters.imageUrl;
  if (typeof imageUrl !== 'string' || !/^https?:\/\/\S+$/.test(imageUrl)) {
    throw new ServiceRefusal(400, `imageUrl ${String(imageUrl)}: an http(s) link is required`);
  }
  return { action, service, dataId, imageUrl };
}

/** Fetches the image as Aliyun would: a plain GET within 3 s. */
async function fetchImage(imageUrl: string): Promise<NonNullable<AliyunModerationRequest['fetched']>> {
  try {
    const res = await fetch(imageUrl, { signal: AbortSignal.timeout(3000) });
    return {
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      body: Buffer.from(await res.arrayBuffer()),
    };
  } catch (err) {
    return { error: String(err) };
  }
}

export async function startAliyunModerationDouble(
  account: AliyunModerationAccount,
  words: { blockWords?: string[]; reviewWords?: string[] } = {},
): Promise<AliyunModerationDouble> {
  const {
    requests,
    rejections,
    next: queuedAnswer,
    serve,
  } = moderationRecord<
    AliyunModerationAccount,
    AliyunModerationRequest,
    AliyunModerationAction,
    AliyunModerationAnswer
  >();

  /** The field the action names its message in. */
  const messageField = (action: string) => (action === 'ImageModeration' ? 'Msg' : 'Message');
  const refuseInBody = (res: ServerResponse, action: string, code: number, message = MESSAGES[code] ?? '') =>
    answerAliyun(res, 200, { Code: code, [messageField(action)]: message });

  const ownVerdict = (call: AliyunModerationRequest): AliyunModerationVerdict & { RiskWords?: string } => {
    const text = call.content ?? '';
    const blocked = (words.blockWords ?? []).filter((word) => text.includes(word));
    if (blocked.length > 0) return { RiskLevel: 'high', Label: 'pornographic_adult', RiskWords: blocked.join(',') };
    const review = (words.reviewWords ?? []).filter((word) => text.includes(word));
    if (review.length > 0) return { RiskLevel: 'medium', Label: 'pt_to_contact', RiskWords: review.join(',') };
    return { RiskLevel: 'none', Label: 'nonLabel' };
  };

  const answerVerdict = (
    res: ServerResponse,
    call: AliyunModerationRequest,
    verdict: AliyunModerationVerdict & { RiskWords?: string },
  ) => {
    const risky = verdict.RiskLevel !== 'none';
    const result = {
      Label: verdict.Label,
      ...(risky ? { Confidence: verdict.RiskLevel === 'high' ? 97.5 : 71.2 } : {}),
      ...(call.action === 'TextModerationPlus' && verdict.RiskWords ? { RiskWords: verdict.RiskWords } : {}),
      Description: risky ? '疑似风险内容' : '未检测出风险',
      ...(call.action === 'ImageModeration' ? { RiskLevel: verdict.RiskLevel } : {}),
    };
    answerAliyun(res, 200, {
      Code: 200,
      [messageField(call.action)]: call.action === 'ImageModeration' ? 'success' : 'OK',
      Data: { DataId: call.dataId ?? '', RiskLevel: verdict.RiskLevel, Result: [result] },
    });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let call: AliyunModerationRequest;
    try {
      checkAcs3Signature(req, url, body, account);
      call = checkRequest(req, url, body);
    } catch (err) {
      if (err instanceof Refusal) {
        rejections.push(`${err.code}: ${err.message}`);
        answerAliyun(res, err.status, { Code: err.code, Message: err.message });
        return;
      }
      if (err instanceof ServiceRefusal) {
        rejections.push(`${err.code}: ${err.message}`);
        refuseInBody(res, header(req, 'x-acs-action'), err.code, err.message);
        return;
      }
      throw err;
    }
    requests.push(call);
    const next = queuedAnswer(call.action);
    if (playTransportFailure(req, res, next)) return;
    if (next && 'status' in next)
      return answerAliyun(res, next.status, { Code: next.code, Message: MESSAGES[next.code] });
    if (next && 'code' in next) return refuseInBody(res, call.action, next.code);
    if (call.imageUrl) {
      call.fetched = await fetchImage(call.imageUrl);
      const fetched = call.fetched;
      if ('error' in fetched) return refuseInBody(res, call.action, 592);
      const isImage = IMAGE_MAGIC.some((magic) => fetched.body.subarray(0, magic.length).equals(magic));
      if (fetched.status !== 200 || !isImage) return refuseInBody(res, call.action, 480);
    }
    answerVerdict(res, call, next ?? ownVerdict(call));
  };

  return serve(handle, account, (url) => ({ ...account, region: 'cn-shanghai', endpoint: url }));
}
