import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  BAIDU_TRANSLATE_URL,
  BaiduTranslator,
  baiduRequest,
  baiduSign,
} from '../../../src/features/translate/baidu.js';
import { LibreTranslateTranslator, libreTranslateRequest } from '../../../src/features/translate/libretranslate.js';
import { TencentTranslator, tc3Sign, tencentRequest } from '../../../src/features/translate/tencent.js';
import { providerTranslator } from '../../../src/features/translate/translate.service.js';
import { joinLines, splitLines, TranslateProviderError } from '../../../src/features/translate/translator.js';

// Pure parts only: requests and signatures. Real calls need accounts and a network this suite does not have.

describe('Baidu fanyi-api request', () => {
  it('signs as the documentation example: md5("2015063000000001" + "apple" + "1435660288" + "12345678")', () => {
    expect(baiduSign('2015063000000001', 'apple', '1435660288', '12345678')).toBe('f89f9594663708c1605f3d736d01d2d4');
  });

  it('signs the raw UTF-8 query and sends a form with from=zh, to=en', () => {
    const q = '月亮\n水墨山水';
    const request = baiduRequest({ appId: 'app1', key: 'k3y' }, q, '12345');
    const expectedSign = createHash('md5')
      .update(Buffer.from(`app1${q}12345k3y`, 'utf8'))
      .digest('hex');
    expect(request.url).toBe(BAIDU_TRANSLATE_URL);
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(request.body);
    expect(Object.fromEntries(form)).toEqual({
      q,
      from: 'zh',
      to: 'en',
      appid: 'app1',
      salt: '12345',
      sign: expectedSign,
    });
  });
});

describe('Tencent TMT request (TC3-HMAC-SHA256)', () => {
  // The worked example of the TencentCloud API 3.0 signature documentation (CVM DescribeInstances).
  const doc = {
    secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE',
    secretKey: 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE',
    service: 'cvm',
    host: 'cvm.tencentcloudapi.com',
    timestamp: 1551113065,
    payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
  };

  it('reproduces the documented canonical request, string to sign and signature', () => {
    const signed = tc3Sign(doc);
    expect(signed.canonicalRequest).toBe(
      [
        'POST',
        '/',
        '',
        'content-type:application/json; charset=utf-8',
        'host:cvm.tencentcloudapi.com',
        '',
        'content-type;host',
        '35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064',
      ].join('\n'),
    );
    expect(signed.stringToSign).toBe(
      'TC3-HMAC-SHA256\n1551113065\n2019-02-25/cvm/tc3_request\n5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031',
    );
    expect(signed.authorization).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE/2019-02-25/cvm/tc3_request, ' +
        'SignedHeaders=content-type;host, Signature=72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168',
    );
    // The current page masks the key as "Gu5t9xGARNpq86cd98joQYCN3*******" and prints this signature for it.
    expect(tc3Sign({ ...doc, secretKey: 'Gu5t9xGARNpq86cd98joQYCN3*******' }).signature).toBe(
      '2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c',
    );
  });

  it('dates the credential scope in UTC (00:44 in Beijing is still the previous day)', () => {
    expect(tc3Sign(doc).stringToSign.split('\n')[2]).toBe('2019-02-25/cvm/tc3_request');
  });

  it('shapes TextTranslate zh → en with its headers, signed over the exact body sent', () => {
    const options = { secretId: 'AKIDtest', secretKey: 'secret', region: 'ap-shanghai' };
    const request = tencentRequest(options, '月亮\n星星', 1700000000);
    expect(request.url).toBe('https://tmt.tencentcloudapi.com/');
    expect(JSON.parse(request.body)).toEqual({ SourceText: '月亮\n星星', Source: 'zh', Target: 'en', ProjectId: 0 });
    expect(request.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'x-tc-action': 'TextTranslate',
      'x-tc-version': '2018-03-21',
      'x-tc-timestamp': '1700000000',
      'x-tc-region': 'ap-shanghai',
    });
    // Independently: the documented steps with node:crypto.
    const sha = (s: string) => createHash('sha256').update(s).digest('hex');
    const hmac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s).digest();
    const canonical = `POST\n/\n\ncontent-type:application/json; charset=utf-8\nhost:tmt.tencentcloudapi.com\n\ncontent-type;host\n${sha(request.body)}`;
    const toSign = `TC3-HMAC-SHA256\n1700000000\n2023-11-14/tmt/tc3_request\n${sha(canonical)}`;
    const key = hmac(hmac(hmac('TC3secret', '2023-11-14'), 'tmt'), 'tc3_request');
    const signature = createHmac('sha256', key).update(toSign).digest('hex');
    expect(request.headers.authorization).toBe(
      `TC3-HMAC-SHA256 Credential=AKIDtest/2023-11-14/tmt/tc3_request, SignedHeaders=content-type;host, Signature=${signature}`,
    );
  });
});

describe('LibreTranslate request', () => {
  it('POSTs {q, source, target, format} to {url}/translate, with api_key only when configured', () => {
    const bare = libreTranslateRequest({ url: 'http://lt.local:5000/' }, '月亮');
    expect(bare.url).toBe('http://lt.local:5000/translate');
    expect(JSON.parse(bare.body)).toEqual({ q: '月亮', source: 'zh', target: 'en', format: 'text' });
    const keyed = libreTranslateRequest({ url: 'https://lt.example.com/base', apiKey: 'k' }, '月亮');
    expect(keyed.url).toBe('https://lt.example.com/base/translate');
    expect(JSON.parse(keyed.body)).toMatchObject({ api_key: 'k' });
  });
});

describe('one request per prompt', () => {
  it('sends the phrases as lines and refuses an answer with a different line count', () => {
    expect(joinLines(['月亮', ' 水墨  山水 '])).toBe('月亮\n水墨 山水');
    expect(splitLines('moon\nink landscape', 2, 'x')).toEqual(['moon', 'ink landscape']);
    expect(() => splitLines('moon ink landscape', 2, 'x')).toThrow(TranslateProviderError);
  });

  it('builds the configured provider; the dictionary needs none', () => {
    expect(providerTranslator({ kind: 'dictionary' })).toBeNull();
    expect(providerTranslator({ kind: 'libretranslate', url: 'http://lt', apiKey: undefined })).toBeInstanceOf(
      LibreTranslateTranslator,
    );
    expect(providerTranslator({ kind: 'baidu', appId: 'a', key: 'k' })).toBeInstanceOf(BaiduTranslator);
    expect(
      providerTranslator({ kind: 'tencent', secretId: 'i', secretKey: 'k', region: 'ap-shanghai' }),
    ).toBeInstanceOf(TencentTranslator);
  });
});
