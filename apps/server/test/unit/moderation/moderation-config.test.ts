import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';

const ALIYUN = {
  MODERATION_PROVIDER: 'aliyun',
  MODERATION_ACCESS_KEY_ID: 'LTAIExample',
  MODERATION_ACCESS_KEY_SECRET: 'secret',
};

const TENCENT = {
  MODERATION_PROVIDER: 'tencent',
  MODERATION_ACCESS_KEY_ID: 'AKIDExample',
  MODERATION_ACCESS_KEY_SECRET: 'secret',
};

describe('config: moderation provider', () => {
  it('is off by default', () => {
    expect(loadConfig({}).moderation).toEqual({ kind: 'none' });
  });

  it('reads Tencent with its region default (ap-guangzhou) and a 10 s timeout', () => {
    expect(loadConfig(TENCENT).moderation).toEqual({
      kind: 'tencent',
      accessKeyId: 'AKIDExample',
      accessKeySecret: 'secret',
      region: 'ap-guangzhou',
      endpoint: undefined,
      timeoutMs: 10_000,
    });
    expect(
      loadConfig({
        ...TENCENT,
        MODERATION_REGION: 'ap-shanghai',
        MODERATION_ENDPOINT: 'https://{service}.ap-shanghai.tencentcloudapi.com',
        MODERATION_TIMEOUT_SECONDS: '2.5',
      }).moderation,
    ).toMatchObject({
      region: 'ap-shanghai',
      endpoint: 'https://{service}.ap-shanghai.tencentcloudapi.com',
      timeoutMs: 2500,
    });
  });

  it('refuses to start with a provider missing its keys, naming each in English and Chinese', () => {
    expect(() => loadConfig({ MODERATION_PROVIDER: 'tencent' })).toThrow(
      /MODERATION_ACCESS_KEY_ID: required when MODERATION_PROVIDER=tencent（内容审核 tencent 缺少此变量）[\s\S]*MODERATION_ACCESS_KEY_SECRET/,
    );
    expect(() => loadConfig({ ...TENCENT, MODERATION_ACCESS_KEY_SECRET: ' ' })).toThrow(/MODERATION_ACCESS_KEY_SECRET/);
    expect(() => loadConfig({ ...TENCENT, MODERATION_PROVIDER: 'baidu' })).toThrow(/MODERATION_PROVIDER/);
    expect(() => loadConfig({ ...TENCENT, MODERATION_ENDPOINT: 'tms.tencentcloudapi.com' })).toThrow(
      /MODERATION_ENDPOINT: must be an http\(s\) URL/,
    );
    expect(() => loadConfig({ ...TENCENT, MODERATION_TIMEOUT_SECONDS: '0' })).toThrow(/MODERATION_TIMEOUT_SECONDS/);
  });

  it('reads Aliyun with its region default (cn-shanghai) and the public address its image checks fetch from', () => {
    const config = loadConfig({ ...ALIYUN, PUBLIC_BASE_URL: 'https://huafang.example.com/' });
    expect(config.moderation).toEqual({
      kind: 'aliyun',
      accessKeyId: 'LTAIExample',
      accessKeySecret: 'secret',
      region: 'cn-shanghai',
      endpoint: undefined,
      timeoutMs: 10_000,
    });
    // Without the trailing slash: links are the origin followed by /api/works/image/….
    expect(config.publicBaseUrl).toBe('https://huafang.example.com');
    expect(
      loadConfig({
        ...ALIYUN,
        PUBLIC_BASE_URL: 'https://huafang.example.com',
        MODERATION_REGION: 'cn-beijing',
        MODERATION_ENDPOINT: 'https://green-cip-vpc.cn-beijing.aliyuncs.com',
        MODERATION_TIMEOUT_SECONDS: '3',
      }).moderation,
    ).toMatchObject({
      region: 'cn-beijing',
      endpoint: 'https://green-cip-vpc.cn-beijing.aliyuncs.com',
      timeoutMs: 3000,
    });
    // Other providers do not need it; it is read all the same.
    expect(loadConfig({}).publicBaseUrl).toBeUndefined();
    expect(loadConfig({ ...TENCENT, PUBLIC_BASE_URL: 'https://a.example' }).publicBaseUrl).toBe('https://a.example');
  });

  it('refuses Aliyun without its keys or without PUBLIC_BASE_URL, in English and Chinese', () => {
    expect(() => loadConfig(ALIYUN)).toThrow(
      /PUBLIC_BASE_URL: required when MODERATION_PROVIDER=aliyun[^\n]*（阿里云图片审核按签名链接取图，需要站点的公网地址/,
    );
    expect(() => loadConfig({ MODERATION_PROVIDER: 'aliyun', PUBLIC_BASE_URL: 'https://a.example' })).toThrow(
      /MODERATION_ACCESS_KEY_ID: required when MODERATION_PROVIDER=aliyun（内容审核 aliyun 缺少此变量）[\s\S]*MODERATION_ACCESS_KEY_SECRET/,
    );
    for (const bad of ['huafang.example.com', 'https://huafang.example.com/?x=1', 'ftp://huafang.example.com']) {
      expect(() => loadConfig({ ...ALIYUN, PUBLIC_BASE_URL: bad }), bad).toThrow(
        /PUBLIC_BASE_URL: must be an http\(s\) URL/,
      );
    }
  });
});
