import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import type { SmsGatewayConfig } from '../../config.js';
import { describeError, type SmsFailure, type SmsProvider, sendRefusals } from './sms-provider.js';

// Both packages are CommonJS with an `exports.default` class: Node's ESM loader and vitest disagree on what a
// default import of them is, require() gives the same object everywhere.
const require = createRequire(import.meta.url);
const { default: Dysmsapi, SendSmsRequest } =
  require('@alicloud/dysmsapi20170525') as typeof import('@alicloud/dysmsapi20170525');
const { $OpenApiUtil } = require('@alicloud/openapi-core') as typeof import('@alicloud/openapi-core');

/**
 * Aliyun's documented SendSms codes that the user can act on (help.aliyun.com, 短信服务 API 错误码): its flow
 * control per number (1 a minute, 5 an hour, 10 a day by default) and the gateway's API throttling; a number it
 * will not deliver to. Every other code (isv.SMS_TEMPLATE_ILLEGAL, isv.SMS_SIGNATURE_ILLEGAL,
 * isv.AMOUNT_NOT_ENOUGH, isv.OUT_OF_SERVICE, InvalidAccessKeyId.NotFound, isp.SYSTEM_ERROR…) is the operator's.
 */
export function aliyunFailure(providerCode: string): SmsFailure {
  if (providerCode === 'isv.BUSINESS_LIMIT_CONTROL' || providerCode.startsWith('Throttling')) return 'throttled';
  if (providerCode === 'isv.MOBILE_NUMBER_ILLEGAL') return 'mobile-rejected';
  return 'failed';
}

/**
 * Aliyun 短信服务 SendSms (dysmsapi 2017-05-25) through the official SDK, which signs with ACS3-HMAC-SHA256 and
 * sends the parameters in the query string. No retries (the SDK's default): SendSms is not idempotent, and a
 * timed-out request may still have been delivered.
 */
export class AliyunSmsProvider implements SmsProvider {
  private readonly client: InstanceType<typeof Dysmsapi>;

  constructor(
    private readonly options: SmsGatewayConfig,
    private readonly log: FastifyBaseLogger,
  ) {
    const endpoint = options.endpoint ? new URL(options.endpoint) : undefined;
    this.client = new Dysmsapi(
      new $OpenApiUtil.Config({
        accessKeyId: options.accessKeyId,
        accessKeySecret: options.accessKeySecret,
        regionId: options.region,
        // Unset: the SDK takes the region's endpoint (dysmsapi.aliyuncs.com for the mainland) over HTTPS.
        ...(endpoint ? { endpoint: endpoint.host, protocol: endpoint.protocol.slice(0, -1) } : {}),
        connectTimeout: options.timeoutMs,
        readTimeout: options.timeoutMs,
      }),
    );
  }

  async sendCode(mobile: string, code: string): Promise<void> {
    const refuse = sendRefusals(this.log, { provider: 'aliyun', mobile, code }, aliyunFailure);
    let answer: { code?: string; message?: string } | undefined;
    try {
      const response = await this.client.sendSms(
        new SendSmsRequest({
          phoneNumbers: mobile,
          signName: this.options.signName,
          templateCode: this.options.templateCode,
          // The template's variable must be named `code`: ${code} in the approved template text.
          templateParam: JSON.stringify({ code }),
        }),
      );
      answer = response.body;
    } catch (err) {
      // HTTP 4xx/5xx answers (bad keys, throttling), network errors and timeouts.
      const { code: errorCode, text } = describeError(err);
      throw refuse(errorCode ?? 'RequestFailed', text);
    }
    // Business refusals come back as HTTP 200 with a Code other than OK.
    if (answer?.code !== 'OK') throw refuse(answer?.code ?? 'NoCode', answer?.message);
  }
}
