import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { header, playTransportFailure, type SmsDouble, startProviderServer } from './provider-double.js';
import { acceptedCall, answerTencent, checkTc3Signature, Refusal, tencentGateway } from './tencent-tc3.js';

/**
 * A stand-in for Tencent Cloud SMS (API 3.0, version 2021-01-11) on 127.0.0.1, answering SendSms the way the
 * documentation describes it (cloud.tencent.com/document/api/382/55981, 签名方法 v3):
 * - the request: POST / with a JSON body, X-TC-Action: SendSms, X-TC-Version: 2021-01-11, X-TC-Region,
 *   X-TC-Timestamp, and PhoneNumberSet (E.164, +86…), SmsSdkAppId, SignName, TemplateId, TemplateParamSet;
 * - the signature: `Authorization: TC3-HMAC-SHA256 Credential=<SecretId>/<UTC date>/<service>/tc3_request,
 *   SignedHeaders=content-type;host, Signature=<hex>`, recomputed here with the secret key. The service must be
 *   the product label of the host that was called ("sms" for sms.tencentcloudapi.com; for this double's
 *   127.0.0.1 it is "127", which is what the SDK derives from such an endpoint);
 * - the answers, always HTTP 200: `{Response: {SendStatusSet: [{Code: "Ok", …}], RequestId}}`, a refusal of one
 *   number in its SendStatus (Code LimitExceeded.PhoneNumberDailyLimit, InvalidParameterValue.IncorrectPhoneNumber…)
 *   while the call itself succeeds, and a refusal of the call as `{Response: {Error: {Code, Message}, RequestId}}`.
 * Like a real application it knows one SdkAppId, signature and template: others are refused with their codes.
 */

export type TencentSmsAccount = {
  secretId: string;
  secretKey: string;
  sdkAppId: string;
  signName: string;
  templateId: string;
};

/** The application tests use unless they need another. */
export const TENCENT_SMS_ACCOUNT: TencentSmsAccount = {
  secretId: 'AKIDHuafangTestSecretId',
  secretKey: 'tencent-secret-for-the-double',
  sdkAppId: '1400006666',
  signName: '画坊',
  templateId: '1110',
};

/** A SendSms request that passed the API checks (key, signature, action, version, body). */
export type TencentSendSms = {
  region: string;
  phoneNumberSet: string[];
  smsSdkAppId: string;
  signName: string;
  templateId: string;
  templateParamSet: string[];
};

/**
 * What the next SendSms does instead of sending: a per-number refusal in SendStatusSet, a refusal of the call in
 * Response.Error, an HTTP 502 (a gateway in front of a provider that is down), no answer, or a dropped connection.
 */
export type TencentSmsFailure = { status: string } | { error: string } | 'http-502' | 'hang' | 'reset';

/** `requests`: SendSms requests that reached the SMS checks (sent or refused there). */
export type TencentSmsDouble = SmsDouble<TencentSmsAccount, TencentSendSms, TencentSmsFailure> & {
  settings: { sdkAppId: string };
};

/** The documentation's descriptions for the codes tests use. */
const MESSAGES: Record<string, string> = {
  'LimitExceeded.PhoneNumberDailyLimit': '单个手机号日下发短信条数超过设定的上限',
  'LimitExceeded.PhoneNumberThirtySecondLimit': '单个手机号30秒内下发短信条数超过设定的上限',
  'InvalidParameterValue.IncorrectPhoneNumber': '手机号格式错误',
  'FailedOperation.PhoneNumberInBlacklist': '手机号在免打扰名单库中',
  'FailedOperation.SignatureIncorrectOrUnapproved': '签名未审批或格式错误',
  'FailedOperation.TemplateIncorrectOrUnapproved': '模板未审批或内容不匹配',
  'FailedOperation.InsufficientBalanceInSmsPackage': '套餐包余量不足',
  'InvalidParameterValue.TemplateParameterFormatError': '验证码模板参数格式错误',
  'UnauthorizedOperation.SmsSdkAppIdVerifyFail': 'SmsSdkAppId 校验失败',
  'InternalError.Timeout': '请求下发短信超时',
};

/** The API's checks of method, action, version, region and body; returns the parameters. */
function checkRequest(req: IncomingMessage, body: Buffer): TencentSendSms {
  if (req.method !== 'POST' || (req.url ?? '/') !== '/') {
    throw new Refusal('InvalidRequest', `${req.method} ${req.url}`);
  }
  if (!header(req, 'content-type').startsWith('application/json')) {
    throw new Refusal('InvalidParameter', `content-type ${header(req, 'content-type')}`);
  }
  if (header(req, 'x-tc-action') !== 'SendSms') {
    throw new Refusal('InvalidAction', `action ${header(req, 'x-tc-action')}`);
  }
  if (header(req, 'x-tc-version') !== '2021-01-11') {
    throw new Refusal('NoSuchVersion', `version ${header(req, 'x-tc-version')}`);
  }
  const region = header(req, 'x-tc-region');
  if (!region) throw new Refusal('MissingParameter', 'X-TC-Region is required for SendSms');
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new Refusal('FailedOperation.JsonParseFail', 'the body is not JSON');
  }
  const strings = (name: string) => {
    const value = parsed[name];
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
      throw new Refusal('InvalidParameter', `${name} must be an array of strings`);
    }
    return value as string[];
  };
  const text = (name: string) => {
    const value = parsed[name];
    if (typeof value !== 'string' || !value) throw new Refusal('MissingParameter', `${name} is required`);
    return value;
  };
  return {
    region,
    phoneNumberSet: strings('PhoneNumberSet'),
    smsSdkAppId: text('SmsSdkAppId'),
    signName: text('SignName'),
    templateId: text('TemplateId'),
    templateParamSet: strings('TemplateParamSet'),
  };
}

export async function startTencentSmsDouble(account = TENCENT_SMS_ACCOUNT): Promise<TencentSmsDouble> {
  const requests: TencentSendSms[] = [];
  const rejections: string[] = [];
  const sent = new Map<string, string>();
  const failures: TencentSmsFailure[] = [];

  const refuseCall = (res: ServerResponse, code: string) =>
    answerTencent(res, { Error: { Code: code, Message: MESSAGES[code] ?? code } });
  const status = (phoneNumber: string, code: string) => ({
    SerialNo: code === 'Ok' ? `2028:${randomUUID()}` : '',
    PhoneNumber: phoneNumber,
    Fee: code === 'Ok' ? 1 : 0,
    SessionContext: '',
    Code: code,
    Message: code === 'Ok' ? 'send success' : (MESSAGES[code] ?? code),
    IsoCode: 'CN',
  });

  const handle = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const params = acceptedCall(res, { requests, rejections }, () => {
      const sendSms = checkRequest(req, body);
      checkTc3Signature(req, body, account);
      return sendSms;
    });
    if (!params) return;
    const failure = failures.shift();
    if (playTransportFailure(req, res, failure)) return;
    if (failure && 'error' in failure) return refuseCall(res, failure.error);
    if (params.smsSdkAppId !== account.sdkAppId) return refuseCall(res, 'UnauthorizedOperation.SmsSdkAppIdVerifyFail');
    if (params.signName !== account.signName) return refuseCall(res, 'FailedOperation.SignatureIncorrectOrUnapproved');
    if (params.templateId !== account.templateId) {
      return refuseCall(res, 'FailedOperation.TemplateIncorrectOrUnapproved');
    }
    // A verification-code template takes one variable of 0–6 digits.
    const [code, ...extra] = params.templateParamSet;
    if (code === undefined || extra.length > 0 || !/^\d{0,6}$/.test(code)) {
      return refuseCall(res, 'InvalidParameterValue.TemplateParameterFormatError');
    }
    const statuses = params.phoneNumberSet.map((phoneNumber) => {
      if (failure && 'status' in failure) return status(phoneNumber, failure.status);
      const mobile = /^\+861[3-9]\d{9}$/.test(phoneNumber) ? phoneNumber.slice(3) : undefined;
      if (!mobile) return status(phoneNumber, 'InvalidParameterValue.IncorrectPhoneNumber');
      sent.set(mobile, code);
      return status(phoneNumber, 'Ok');
    });
    answerTencent(res, { SendStatusSet: statuses });
  };

  const server = await startProviderServer(handle);
  return {
    ...server,
    account,
    settings: {
      ...tencentGateway(account, server.url),
      sdkAppId: account.sdkAppId,
      signName: account.signName,
      templateCode: account.templateId,
    },
    requests,
    rejections,
    lastCodeTo: (mobile) => sent.get(mobile),
    failNext: (failure) => void failures.push(failure),
  };
}
