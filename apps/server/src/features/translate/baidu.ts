import { createHash, randomInt } from 'node:crypto';
import { joinLines, type ProviderRequest, send, TranslateProviderError, type Translator } from './translator.js';

export const BAIDU_TRANSLATE_URL = 'https://fanyi-api.baidu.com/api/trans/vip/translate';

export type BaiduOptions = { appId: string; key: string };

/** sign = md5(appid + q + salt + key), over the raw UTF-8 query (not URL-encoded). */
export const baiduSign = (appId: string, q: string, salt: string, key: string) =>
  createHash('md5').update(`${appId}${q}${salt}${key}`, 'utf8').digest('hex');

/** Baidu general translation: a form POST; several lines of `q` are translated line by line. */
export function baiduRequest(options: BaiduOptions, q: string, salt: string): ProviderRequest {
  const form = new URLSearchParams({
    q,
    from: 'zh',
    to: 'en',
    appid: options.appId,
    salt,
    sign: baiduSign(options.appId, q, salt, options.key),
  });
  return {
    url: BAIDU_TRANSLATE_URL,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  };
}

type BaiduAnswer = { trans_result?: { src: string; dst: string }[]; error_code?: string; error_msg?: string };

export class BaiduTranslator implements Translator {
  readonly name = 'baidu';

  constructor(private readonly options: BaiduOptions) {}

  async translate(phrases: string[]): Promise<string[]> {
    const salt = String(randomInt(10_000_000, 99_999_999));
    const answer = (await send(baiduRequest(this.options, joinLines(phrases), salt), this.name)) as BaiduAnswer;
    if (answer.error_code && answer.error_code !== '52000') {
      throw new TranslateProviderError(`${this.name}: error ${answer.error_code} ${answer.error_msg ?? ''}`.trim());
    }
    const lines = answer.trans_result?.map((r) => r.dst.trim()) ?? [];
    if (lines.length !== phrases.length) {
      throw new TranslateProviderError(`${this.name}: sent ${phrases.length} lines, got ${lines.length} back`);
    }
    return lines;
  }
}
