import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';

const ALIYUN = {
  SMS_PROVIDER: 'aliyun',
  SMS_ACCESS_KEY_ID: 'LTAI5tExample',
  SMS_ACCESS_KEY_SECRET: 'secret',
  SMS_SIGN_NAME: '画坊',
  SMS_TEMPLATE_CODE: 'SMS_154950909',
};

describe('config: SMS provider', () => {
  it('defaults to the console provider', () => {
    expect(loadConfig({}).sms).toEqual({ kind: 'console' });
  });

  it('reads a gateway with its region default (Aliyun cn-hangzhou, Tencent ap-guangzhou) and a 5 s timeout', () => {
    expect(loadConfig(ALIYUN).sms).toEqual({
      kind: 'aliyun',
      accessKeyId: 'LTAI5tExample',
      accessKeySecret: 'secret',
      signName: '画坊',
      templateCode: 'SMS_154950909',
      region: 'cn-hangzhou',
      endpoint: undefined,
      timeoutMs: 5000,
    });
    expect(
      loadConfig({
        ...ALIYUN,
        SMS_PROVIDER: 'tencent',
        SMS_TEMPLATE_CODE: '1110',
        SMS_SDK_APP_ID: '1400006666',
        SMS_ENDPOINT: 'https://sms.ap-shanghai.tencentcloudapi.com',
        SMS_TIMEOUT_SECONDS: '2.5',
      }).sms,
    ).toMatchObject({
      kind: 'tencent',
      sdkAppId: '1400006666',
      templateCode: '1110',
      region: 'ap-guangzhou',
      endpoint: 'https://sms.ap-shanghai.tencentcloudapi.com',
      timeoutMs: 2500,
    });
    expect(loadConfig({ ...ALIYUN, SMS_REGION: 'cn-shenzhen' }).sms).toMatchObject({ region: 'cn-shenzhen' });
  });

  it('refuses to start with a gateway missing its variables, naming each one in English and Chinese', () => {
    expect(() => loadConfig({ SMS_PROVIDER: 'aliyun' })).toThrow(
      /SMS_ACCESS_KEY_ID: required when SMS_PROVIDER=aliyun（短信通道 aliyun 缺少此变量）[\s\S]*SMS_TEMPLATE_CODE/,
    );
    // An empty value is not a credential; Tencent also needs its SdkAppId.
    expect(() => loadConfig({ ...ALIYUN, SMS_SIGN_NAME: ' ' })).toThrow(/SMS_SIGN_NAME: required/);
    expect(() => loadConfig({ ...ALIYUN, SMS_PROVIDER: 'tencent' })).toThrow(
      /SMS_SDK_APP_ID: required when SMS_PROVIDER=tencent/,
    );
    expect(() => loadConfig({ SMS_PROVIDER: 'yunpian' })).toThrow(/SMS_PROVIDER/);
    expect(() => loadConfig({ ...ALIYUN, SMS_ENDPOINT: 'dysmsapi.aliyuncs.com' })).toThrow(
      /SMS_ENDPOINT: must be an http\(s\) URL/,
    );
    expect(() => loadConfig({ ...ALIYUN, SMS_TIMEOUT_SECONDS: '0' })).toThrow(/SMS_TIMEOUT_SECONDS/);
  });
});
