import { createHash, createHmac, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { header } from './provider-double.js';

/**
 * What the Aliyun doubles (短信服务, 内容安全增强版) share: the gateway's check of the V3 signature as Aliyun documents
 * it (《V3版本请求体&签名机制》: `Authorization: ACS3-HMAC-SHA256 Credential=<AccessKeyId>,SignedHeaders=<host;x-acs-…>,
 * Signature=<hex>`, recomputed here from the canonical request with the secret), the gateway's refusal (an HTTP
 * status and a string Code), and the JSON answer with its RequestId.
 */

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

/** A refusal by the gateway: HTTP status and a string Code. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Aliyun's JSON answer: the body with a RequestId, as the gateway and the services send it. */
export function answerAliyun(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' });
  res.end(JSON.stringify({ ...body, RequestId: randomUUID().toUpperCase() }));
}

/** The gateway's checks of the V3 signature; throws the Code the gateway would answer. */
export function checkAcs3Signature(
  req: IncomingMessage,
  url: URL,
  body: Buffer,
  account: { accessKeyId: string; accessKeySecret: string },
): void {
  const auth = /^ACS3-HMAC-SHA256 Credential=([^,]+),SignedHeaders=([a-z0-9;-]+),Signature=([0-9a-f]{64})$/.exec(
    header(req, 'authorization'),
  );
  if (!auth) throw new Refusal(400, 'IncompleteSignature', `malformed Authorization: ${header(req, 'authorization')}`);
  const [, accessKeyId = '', signedHeaderList = '', signature] = auth;
  if (accessKeyId !== account.accessKeyId) throw new Refusal(404, 'InvalidAccessKeyId.NotFound', 'unknown AccessKeyId');
  const signed = signedHeaderList.split(';');
  const unsigned = REQUIRED_SIGNED.filter((name) => !signed.includes(name));
  if (unsigned.length > 0) throw new Refusal(400, 'IncompleteSignature', `headers not signed: ${unsigned.join(', ')}`);
  if (signed.join(';') !== [...signed].sort().join(';')) {
    throw new Refusal(400, 'IncompleteSignature', `SignedHeaders not in order: ${signedHeaderList}`);
  }
  if (header(req, 'x-acs-content-sha256') !== sha256Hex(body)) {
    throw new Refusal(400, 'IncompleteSignature', 'x-acs-content-sha256 is not the hash of the body');
  }
  if (!/^[\w-]{8,}$/.test(header(req, 'x-acs-signature-nonce'))) {
    throw new Refusal(400, 'MissingSignatureNonce', 'x-acs-signature-nonce is required');
  }
  const date = header(req, 'x-acs-date');
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(date) || Math.abs(Date.parse(date) - Date.now()) > 15 * 60_000) {
    throw new Refusal(400, 'InvalidTimeStamp.Expired', `x-acs-date ${date} is not a current UTC time`);
  }
  const query = [...url.searchParams]
    .map(([name, value]) => [percentEncode(name), percentEncode(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const headers = signed.map((name) => `${name}:${header(req, name).trim()}\n`).join('');
  const canonicalRequest = [req.method, url.pathname, query, headers, signedHeaderList, sha256Hex(body)].join('\n');
  const stringToSign = `ACS3-HMAC-SHA256\n${sha256Hex(canonicalRequest)}`;
  const expected = createHmac('sha256', account.accessKeySecret).update(stringToSign).digest('hex');
  if (signature !== expected) throw new Refusal(400, 'SignatureDoesNotMatch', 'the signature does not match');
}
