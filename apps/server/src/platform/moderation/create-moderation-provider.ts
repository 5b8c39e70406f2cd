import type { FastifyBaseLogger } from 'fastify';
import type { ModerationConfig } from '../../config.js';
import { AliyunModerationProvider } from './aliyun-moderation-provider.js';
import { type ModerationProvider, NoModerationProvider } from './moderation-provider.js';
import { TencentModerationProvider } from './tencent-moderation-provider.js';

/** The provider MODERATION_PROVIDER names; config.ts has already refused one missing its keys. */
export function createModerationProvider(config: ModerationConfig, log: FastifyBaseLogger): ModerationProvider {
  switch (config.kind) {
    case 'none':
      return new NoModerationProvider();
    case 'tencent':
      return new TencentModerationProvider(config, log);
    case 'aliyun':
      return new AliyunModerationProvider(config, log);
  }
}
