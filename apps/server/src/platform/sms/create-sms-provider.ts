import type { FastifyBaseLogger } from 'fastify';
import type { SmsConfig } from '../../config.js';
import { AliyunSmsProvider } from './aliyun-sms-provider.js';
import { ConsoleSmsProvider, type SmsProvider } from './sms-provider.js';
import { TencentSmsProvider } from './tencent-sms-provider.js';

/** The provider SMS_PROVIDER names; config.ts has already refused a gateway missing its variables. */
export function createSmsProvider(config: SmsConfig, log: FastifyBaseLogger): SmsProvider {
  switch (config.kind) {
    case 'console':
      return new ConsoleSmsProvider(log);
    case 'aliyun':
      return new AliyunSmsProvider(config, log);
    case 'tencent':
      return new TencentSmsProvider(config, log);
  }
}
