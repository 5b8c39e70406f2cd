import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';

describe('config: translation provider', () => {
  it('defaults to the offline dictionary and 60 requests a minute per user', () => {
    expect(loadConfig({}).translate).toEqual({ provider: { kind: 'dictionary' }, perUserPerMinute: 60 });
    expect(loadConfig({ RATE_LIMIT_TRANSLATE: '5' }).translate.perUserPerMinute).toBe(5);
  });

  it('reads each provider with its credentials; Tencent defaults to ap-shanghai', () => {
    expect(
      loadConfig({ TRANSLATE_PROVIDER: 'libretranslate', TRANSLATE_URL: 'http://lt:5000' }).translate.provider,
    ).toEqual({ kind: 'libretranslate', url: 'http://lt:5000', apiKey: undefined });
    expect(
      loadConfig({ TRANSLATE_PROVIDER: 'baidu', BAIDU_TRANSLATE_APPID: 'id', BAIDU_TRANSLATE_KEY: 'key' }).translate
        .provider,
    ).toEqual({ kind: 'baidu', appId: 'id', key: 'key' });
    expect(
      loadConfig({ TRANSLATE_PROVIDER: 'tencent', TENCENT_SECRET_ID: 'sid', TENCENT_SECRET_KEY: 'skey' }).translate
        .provider,
    ).toEqual({ kind: 'tencent', secretId: 'sid', secretKey: 'skey', region: 'ap-shanghai' });
  });

  it('reads an OpenAI-compatible LLM: base URL and model required, the key optional (a local vLLM or Ollama)', () => {
    expect(
      loadConfig({
        TRANSLATE_PROVIDER: 'llm',
        TRANSLATE_LLM_BASE_URL: 'https://api.deepseek.com/v1',
        TRANSLATE_LLM_API_KEY: 'sk-1',
        TRANSLATE_LLM_MODEL: 'deepseek-chat',
      }).translate.provider,
    ).toEqual({
      kind: 'llm',
      baseUrl: 'https://api.deepseek.com/v1',
      apiKey: 'sk-1',
      model: 'deepseek-chat',
      timeoutMs: 15_000,
    });
    expect(
      loadConfig({
        TRANSLATE_PROVIDER: 'llm',
        TRANSLATE_LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
        TRANSLATE_LLM_MODEL: 'qwen2.5:7b',
        TRANSLATE_LLM_TIMEOUT_SECONDS: '5',
      }).translate.provider,
    ).toMatchObject({ apiKey: undefined, timeoutMs: 5000 });
    expect(() => loadConfig({ TRANSLATE_PROVIDER: 'llm', TRANSLATE_LLM_BASE_URL: 'http://x/v1' })).toThrow(
      /TRANSLATE_LLM_MODEL: required when TRANSLATE_PROVIDER=llm/,
    );
  });

  it('refuses to start with a provider but without its credentials, naming what is missing', () => {
    expect(() => loadConfig({ TRANSLATE_PROVIDER: 'libretranslate' })).toThrow(
      /TRANSLATE_URL: required when TRANSLATE_PROVIDER=libretranslate/,
    );
    expect(() => loadConfig({ TRANSLATE_PROVIDER: 'baidu', BAIDU_TRANSLATE_APPID: 'id' })).toThrow(
      /BAIDU_TRANSLATE_KEY: required when TRANSLATE_PROVIDER=baidu/,
    );
    // An empty value is not a credential.
    expect(() =>
      loadConfig({ TRANSLATE_PROVIDER: 'tencent', TENCENT_SECRET_ID: 'sid', TENCENT_SECRET_KEY: '' }),
    ).toThrow(/TENCENT_SECRET_KEY/);
    expect(() => loadConfig({ TRANSLATE_PROVIDER: 'deepl' })).toThrow(/TRANSLATE_PROVIDER/);
    expect(() => loadConfig({ TRANSLATE_PROVIDER: 'libretranslate', TRANSLATE_URL: 'lt:5000' })).toThrow(
      /TRANSLATE_URL: must be an http\(s\) URL/,
    );
  });
});
