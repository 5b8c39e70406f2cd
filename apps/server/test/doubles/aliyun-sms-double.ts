import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerAliyun, checkAcs3Signature, Refusal } from './aliyun-acs3.js';
import { playTransportFailure, type SmsDouble, startProviderServer } from './provider-double.js';

/**
 * A stand-in for Aliyun 短信服务 (dysmsapi, API version 2017-05-25) on 127.0.0.1, answering SendSms the way the
 * documentation describes it:
 * - the request: POST /, action and version in the x-acs-action / x-acs-version headers, the parameters
 *   (PhoneNumbers, SignName, TemplateCode, TemplateParam) in the query string;
 * - the V3 signature (《V3版本请求体&签名机制》), checked as in aliyun-acs3.ts;
 * - the answers: HTTP 200 `{Code: "OK", BizId, RequestId}`, business refusals as HTTP 200 with an isv.* Code,
 *   gateway refusals (bad key, bad signature, missing parameter, throttling) as HTTP 4xx with a Code.
 * Like a real account it knows one approved signature and template: another one is refused with its isv.* code.
 */

export type AliyunSmsAccount = {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templateCode: string;
};

/** The account tests use unless they need another. */
export const ALIYUN_SMS_ACCOUNT: AliyunSmsAccount = {
  accessKeyId: 'LTAI5tHuafangTest',
  accessKeySecret: 'aliyun-secret-for-the-double',
  signName: '画坊',
  templateCode: 'SMS_154950909',
};

/** A SendSms request that passed the gateway checks (key, signature, action, parameters). */
export type AliyunSendSms = {
  phoneNumbers: string;
  signName: string;
  templateCode: string;
  templateParam: string;
};

/**
 * What the next SendSms does instead of sending: a documented business refusal (HTTP 200 with this Code), an
 * HTTP error with a Code (as the gateway sends for InvalidAccessKeyId.NotFound, Throttling.User…), an HTTP 500
 * with an HTML page (a proxy in front of a provider that is down), no answer at all, or a dropped connection.
 */
export type AliyunSmsFailure = { code: string } | { status: number; code: string } | 'html-500' | 'hang' | 'reset';

/** `requests`: SendSms requests that reached the business checks (sent or refused there). */
export type AliyunSmsDouble = SmsDouble<AliyunSmsAccount, AliyunSendSms, AliyunSmsFailure>;

/** The documentation's messages for the codes tests use. */
const MESSAGES: Record<string, string> = {
  'isv.BUSINESS_LIMIT_CONTROL': '触发分钟级流控Permits:1',
  'isv.MOBILE_NUMBER_ILLEGAL': '非法手机号',
  'isv.SMS_TEMPLATE_ILLEGAL': '该账号下找不到对应模板',
  'isv.SMS_SIGNATURE_ILLEGAL': '该账号下找不到对应签名',
  'isv.AMOUNT_NOT_ENOUGH': '账户余额不足',
  'isv.INVALID_JSON_PARAM': 'JSON参数不合法，只接受字符串值',
  'isp.SYSTEM_ERROR': 'isp.SYSTEM_ERROR',
};

/** The gateway's checks of action, version and parameters; returns the parameters. */
function checkRequest(req: IncomingMessage, url: URL): AliyunSendSms {
  if (req.method !== 'POST' && req.method !== 'GET') throw new Refusal(400, 'UnsupportedHTTPMethod', `${req.method}`);
  if (url.pathname !== '/') throw new Refusal(404, 'InvalidAction.NotFound', `path ${url.pathname}`);
  if (req.headers['x-acs-action'] !== 'SendSms') {
    throw new Refusal(404, 'InvalidAction.NotFound', `action ${req.headers['x-acs-action']}`);
  }
  if (req.headers['x-acs-version'] !== '2017-05-25') {
    throw new Refusal(400, 'InvalidVersion', `version ${req.headers['x-acs-version']}`);
  }
  const param = (name: string) => {
    const value = url.searchParams.get(name);
    if (!value) throw new Refusal(400, `Missing${name}`, `${name} is mandatory for this action.`);
    return value;
  };
  return {
    phoneNumbers: param('PhoneNumbers'),
    signName: param('SignName'),
    templateCode: param('TemplateCode'),
    templateParam: url.searchParams.get('TemplateParam') ?? '',
  };
}

/** The code in TemplateParam, or undefined when it is not the JSON object of strings the template needs. */
function templateCodeParam(templateParam: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(templateParam);
    const code = (parsed as { code?: unknown } | null)?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

export async function startAliyunSmsDouble(account = ALIYUN_SMS_ACCOUNT): Promise<AliyunSmsDouble> {
  const requests: AliyunSendSms[] = [];
  const rejections: string[] = [];
  const sent = new Map<string, string>();
  const failures: AliyunSmsFailure[] = [];

  const refuse = (res: ServerResponse, status: number, code: string, message = MESSAGES[code] ?? code) =>
    answerAliyun(res, status, { Code: code, Message: message });

  const handle = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let params: AliyunSendSms;
    try {
      params = checkRequest(req, url);
      checkAcs3Signature(req, url, body, account);
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      rejections.push(`${err.code}: ${err.message}`);
      refuse(res, err.status, err.code, err.message);
      return;
    }
    requests.push(params);
    const failure = failures.shift();
    if (playTransportFailure(req, res, failure)) return;
    if (failure) {
      refuse(res, 'status' in failure ? failure.status : 200, failure.code);
      return;
    }
    if (params.signName !== account.signName) return refuse(res, 200, 'isv.SMS_SIGNATURE_ILLEGAL');
    if (params.templateCode !== account.templateCode) return refuse(res, 200, 'isv.SMS_TEMPLATE_ILLEGAL');
    if (!/^1[3-9]\d{9}$/.test(params.phoneNumbers)) return refuse(res, 200, 'isv.MOBILE_NUMBER_ILLEGAL');
    const code = templateCodeParam(params.templateParam);
    if (code === undefined) return refuse(res, 200, 'isv.INVALID_JSON_PARAM');
    sent.set(params.phoneNumbers, code);
    answerAliyun(res, 200, { Code: 'OK', Message: 'OK', BizId: `${Date.now()}^0` });
  };

  const server = await startProviderServer(handle);
  return {
    ...server,
    account,
    settings: { ...account, region: 'cn-hangzhou', endpoint: server.url },
    requests,
    rejections,
    lastCodeTo: (mobile) => sent.get(mobile),
    failNext: (failure) => void failures.push(failure),
  };
}
