import { createHash, createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Aliyun 短信服务 (dysmsapi, API version 2017-05-25) on 127.0.0.1, answering SendSms the way the
 * documentation describes it:
 * - the request: POST /, action and version in the x-acs-action / x-acs-version headers, the parameters
 *   (PhoneNumbers, SignName, TemplateCode, TemplateParam) in the query string;
 * - the V3 signature (《V3版本请求体&签名机制》): `Authorization: ACS3-HMAC-SHA256 Credential=<AccessKeyId>,
 *   SignedHeaders=<host;x-acs-…>,Signature=<hex>`, recomputed here from the canonical request with the secret;
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

export type AliyunSmsDouble = {
  /** For SMS_ENDPOINT: http://127.0.0.1:port. */
  url: string;
  account: AliyunSmsAccount;
  /** SendSms requests that reached the business checks, in arrival order (sent or refused there). */
  requests: AliyunSendSms[];
  /** Why each request the gateway refused before the business checks was refused; empty when the SDK signs right. */
  rejections: string[];
  /** The code of the newest message actually sent to this mobile. */
  lastCodeTo(mobile: string): string | undefined;
  failNext(failure: AliyunSmsFailure): void;
  close(): Promise<void>;
};

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

const REQUIRED_SIGNED = [
  'host',
  'x-acs-action',
  'x-acs-content-sha256',
  'x-acs-date',
  'x-acs-signature-nonce',
  'x-acs-version',
];

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
/** RFC 3986 percent-encoding, as the V3 canonical query string wants it. */
const percentEncode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The gateway's checks of the V3 signature; throws the Code the gateway would answer. */
function checkSignature(req: IncomingMessage, url: URL, body: Buffer, account: AliyunSmsAccount): void {
  const auth = /^ACS3-HMAC-SHA256 Credential=([^,]+),SignedHeaders=([a-z0-9;-]+),Signature=([0-9a-f]{64})$/.exec(
    req.headers.authorization ?? '',
  );
  if (!auth) throw new Refusal(400, 'IncompleteSignature', `malformed Authorization: ${req.headers.authorization}`);
  const [, accessKeyId = '', signedHeaderList = '', signature] = auth;
  if (accessKeyId !== account.accessKeyId) throw new Refusal(404, 'InvalidAccessKeyId.NotFound', 'unknown AccessKeyId');
  const signed = signedHeaderList.split(';');
  const unsigned = REQUIRED_SIGNED.filter((name) => !signed.includes(name));
  if (unsigned.length > 0) throw new Refusal(400, 'IncompleteSignature', `headers not signed: ${unsigned.join(', ')}`);
  if (req.headers['x-acs-content-sha256'] !== sha256Hex(body)) {
    throw new Refusal(400, 'IncompleteSignature', 'x-acs-content-sha256 is not the hash of the body');
  }
  const date = String(req.headers['x-acs-date']);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(date) || Math.abs(Date.parse(date) - Date.now()) > 15 * 60_000) {
    throw new Refusal(400, 'InvalidTimeStamp.Expired', `x-acs-date ${date} is not a current UTC time`);
  }
  const query = [...url.searchParams]
    .map(([name, value]) => [percentEncode(name), percentEncode(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const headers = [...signed]
    .sort()
    .map((name) => `${name}:${String(req.headers[name] ?? '').trim()}\n`)
    .join('');
  const canonicalRequest = [req.method, url.pathname, query, headers, signedHeaderList, sha256Hex(body)].join('\n');
  const stringToSign = `ACS3-HMAC-SHA256\n${sha256Hex(canonicalRequest)}`;
  const expected = createHmac('sha256', account.accessKeySecret).update(stringToSign).digest('hex');
  if (signature !== expected) throw new Refusal(400, 'SignatureDoesNotMatch', 'the signature does not match');
}

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

export async function startAliyunSmsDouble(account: AliyunSmsAccount): Promise<AliyunSmsDouble> {
  const requests: AliyunSendSms[] = [];
  const rejections: string[] = [];
  const sent = new Map<string, string>();
  const failures: AliyunSmsFailure[] = [];

  const answer = (res: ServerResponse, status: number, body: Record<string, string>) => {
    res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' });
    res.end(JSON.stringify({ ...body, RequestId: randomUUID().toUpperCase() }));
  };
  const refuse = (res: ServerResponse, status: number, code: string, message = MESSAGES[code] ?? code) =>
    answer(res, status, { Code: code, Message: message });

  const handle = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let params: AliyunSendSms;
    try {
      params = checkRequest(req, url);
      checkSignature(req, url, body, account);
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      rejections.push(`${err.code}: ${err.message}`);
      refuse(res, err.status, err.code, err.message);
      return;
    }
    requests.push(params);
    const failure = failures.shift();
    if (failure === 'hang') return;
    if (failure === 'reset') {
      req.socket.destroy();
      return;
    }
    if (failure === 'html-500') {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<html><body><h1>500 Internal Server Error</h1></body></html>');
      return;
    }
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
    answer(res, 200, { Code: 'OK', Message: 'OK', BizId: `${Date.now()}^0` });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    account,
    requests,
    rejections,
    lastCodeTo: (mobile) => sent.get(mobile),
    failNext(failure) {
      failures.push(failure);
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
