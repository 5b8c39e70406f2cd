import { createHash, createHmac, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { header } from './provider-double.js';

/**
 * What the Tencent Cloud doubles (SMS, TMS/IMS) share: the API's check of the TC3-HMAC-SHA256 signature as
 * Tencent documents it (API 3.0 签名方法 v3), the refusal that carries the Code the API would answer, and the answer
 * itself (always HTTP 200, `{Response: {…, RequestId}}`).
 */

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();

export class Refusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** An answer of the API: the call's result, or `{Error: {Code, Message}}` for a refusal of the call. */
export function answerTencent(res: ServerResponse, response: Record<string, unknown>): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ Response: { ...response, RequestId: randomUUID() } }));
}

/** The server's gateway settings that reach a Tencent double with its account (both doubles take ap-guangzhou). */
export const tencentGateway = (account: { secretId: string; secretKey: string }, endpoint: string) => ({
  accessKeyId: account.secretId,
  accessKeySecret: account.secretKey,
  region: 'ap-guangzhou',
  endpoint,
});

/**
 * Runs the API's checks of a call (`checks` throws a Refusal or returns the call). A refused call is recorded in
 * `rejections`, answered with its Error and gives undefined; an accepted one is recorded in `requests`.
 */
export function acceptedCall<Call>(
  res: ServerResponse,
  log: { requests: Call[]; rejections: string[] },
  checks: () => Call,
): Call | undefined {
  let call: Call;
  try {
    call = checks();
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    log.rejections.push(`${err.code}: ${err.message}`);
    answerTencent(res, { Error: { Code: err.code, Message: err.message } });
    return undefined;
  }
  log.requests.push(call);
  return call;
}

/** The API's checks of the TC3-HMAC-SHA256 signature; returns the service it was signed for. */
export function checkTc3Signature(
  req: IncomingMessage,
  body: Buffer,
  account: { secretId: string; secretKey: string },
): string {
  const auth =
    /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([a-z0-9-]+)\/tc3_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
      header(req, 'authorization'),
    );
  if (!auth) {
    throw new Refusal('AuthFailure.InvalidAuthorization', `malformed Authorization: ${header(req, 'authorization')}`);
  }
  const [, secretId, date = '', service = '', signedHeaderList = '', signature] = auth;
  if (secretId !== account.secretId) throw new Refusal('AuthFailure.SecretIdNotFound', 'unknown SecretId');
  const timestamp = Number(header(req, 'x-tc-timestamp'));
  if (!Number.isInteger(timestamp) || Math.abs(timestamp * 1000 - Date.now()) > 5 * 60_000) {
    throw new Refusal('AuthFailure.SignatureExpire', `X-TC-Timestamp ${header(req, 'x-tc-timestamp')} is not now`);
  }
  if (date !== new Date(timestamp * 1000).toISOString().slice(0, 10)) {
    throw new Refusal('AuthFailure.SignatureFailure', `credential date ${date} is not the UTC date of X-TC-Timestamp`);
  }
  // The SDK signs the host name without the port (the real endpoint is on 443, where the two agree).
  const host = header(req, 'host').replace(/:\d+$/, '');
  if (service !== host.split('.')[0]) {
    throw new Refusal('AuthFailure.SignatureFailure', `service ${service} for ${host}`);
  }
  const signed = signedHeaderList.split(';');
  if (!signed.includes('content-type') || !signed.includes('host')) {
    throw new Refusal('AuthFailure.SignatureFailure', `content-type and host must be signed: ${signedHeaderList}`);
  }
  const canonicalHeaders = signed
    .map((name) => `${name}:${(name === 'host' ? host : header(req, name)).trim().toLowerCase()}\n`)
    .join('');
  const canonicalRequest = ['POST', '/', '', canonicalHeaders, signedHeaderList, sha256Hex(body)].join('\n');
  const stringToSign = [
    'TC3-HMAC-SHA256',
    String(timestamp),
    `${date}/${service}/tc3_request`,
    sha256Hex(canonicalRequest),
  ].join('\n');
  const signingKey = hmac(hmac(hmac(`TC3${account.secretKey}`, date), service), 'tc3_request');
  if (signature !== createHmac('sha256', signingKey).update(stringToSign).digest('hex')) {
    throw new Refusal('AuthFailure.SignatureFailure', 'the signature does not match');
  }
  return service;
}
