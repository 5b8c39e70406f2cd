import { createHash, createHmac } from 'node:crypto';
import { type ProviderRequest, TranslateProviderError, type Translator, translateJoined } from './translator.js';

export type TencentOptions = { secretId: string; secretKey: string; region: string };

const TMT_HOST = 'tmt.tencentcloudapi.com';
const JSON_TYPE = 'application/json; charset=utf-8';

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();

export type Tc3Input = {
  secretId: string;
  secretKey: string;
  /** Product name, the first label of the host: "tmt", "cvm". */
  service: string;
  host: string;
  /** Unix seconds; also the X-TC-Timestamp header. */
  timestamp: number;
  payload: string;
};

/**
 * TencentCloud API 3.0 signature (TC3-HMAC-SHA256) of a JSON POST, signing the content-type and host
 * headers: canonical request → string to sign → HMAC chain keyed by "TC3"+SecretKey, UTC date, service.
 */
export function tc3Sign(input: Tc3Input) {
  const date = new Date(input.timestamp * 1000).toISOString().slice(0, 10);
  const signedHeaders = 'content-type;host';
  const canonicalRequest = [
    'POST',
    '/',
    '',
    `content-type:${JSON_TYPE}\nhost:${input.host}\n`,
    signedHeaders,
    sha256Hex(input.payload),
  ].join('\n');
  const credentialScope = `${date}/${input.service}/tc3_request`;
  const stringToSign = ['TC3-HMAC-SHA256', String(input.timestamp), credentialScope, sha256Hex(canonicalRequest)].join(
    '\n',
  );
  const secretDate = hmac(`TC3${input.secretKey}`, date);
  const secretService = hmac(secretDate, input.service);
  const secretSigning = hmac(secretService, 'tc3_request');
  const signature = createHmac('sha256', secretSigning).update(stringToSign, 'utf8').digest('hex');
  const authorization = `TC3-HMAC-SHA256 Credential=${input.secretId}/${credentialScope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return { canonicalRequest, stringToSign, signature, authorization };
}

/** TMT TextTranslate (version 2018-03-21), zh → en. */
export function tencentRequest(options: TencentOptions, text: string, timestamp: number): ProviderRequest {
  const payload = JSON.stringify({ SourceText: text, Source: 'zh', Target: 'en', ProjectId: 0 });
  const { authorization } = tc3Sign({
    secretId: options.secretId,
    secretKey: options.secretKey,
    service: 'tmt',
    host: TMT_HOST,
    timestamp,
    payload,
  });
  return {
    url: `https://${TMT_HOST}/`,
    method: 'POST',
    // fetch sets Host from the URL; it is the signed value.
    headers: {
      authorization,
      'content-type': JSON_TYPE,
      'x-tc-action': 'TextTranslate',
      'x-tc-version': '2018-03-21',
      'x-tc-timestamp': String(timestamp),
      'x-tc-region': options.region,
    },
    body: payload,
  };
}

type TencentAnswer = { Response?: { TargetText?: string; Error?: { Code: string; Message: string } } };

function targetText(body: unknown, provider: string): string {
  const answer = (body as TencentAnswer).Response;
  if (answer?.Error) throw new TranslateProviderError(`${provider}: ${answer.Error.Code} ${answer.Error.Message}`);
  if (typeof answer?.TargetText !== 'string') throw new TranslateProviderError(`${provider}: no TargetText`);
  return answer.TargetText;
}

export class TencentTranslator implements Translator {
  readonly name = 'tencent';

  constructor(private readonly options: TencentOptions) {}

  translate(phrases: string[]): Promise<string[]> {
    const timestamp = Math.floor(Date.now() / 1000);
    return translateJoined(this.name, phrases, (text) => tencentRequest(this.options, text, timestamp), targetText);
  }
}
