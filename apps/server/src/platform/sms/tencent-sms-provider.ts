import type { FastifyBaseLogger } from 'fastify';
import { sms } from 'tencentcloud-sdk-nodejs-sms';
import type { SmsGatewayConfig } from '../../config.js';
import { describeError, type SmsFailure, type SmsProvider, sendRefusals } from './sms-provider.js';

const SmsClient = sms.v20210111.Client;

/** Tencent's per-number flow control (控制台 → 频率限制) and its API rate limit. */
const THROTTLED = new Set([
  'LimitExceeded.PhoneNumberThirtySecondLimit',
  'LimitExceeded.PhoneNumberOneHourLimit',
  'LimitExceeded.PhoneNumberDailyLimit',
  'LimitExceeded.PhoneNumberSameContentDailyLimit',
  'LimitExceeded.DeliveryFrequencyLimit',
  'RequestLimitExceeded',
]);
/** A number Tencent will not deliver to: malformed for it, or unsubscribed / on a carrier's do-not-disturb list. */
const MOBILE_REJECTED = new Set([
  'InvalidParameterValue.IncorrectPhoneNumber',
  'FailedOperation.PhoneNumberInBlacklist',
]);

/**
 * Tencent's documented SendSms codes (cloud.tencent.com/document/api/382/55981 and the error code list) that the
 * user can act on; every other one (FailedOperation.SignatureIncorrectOrUnapproved,
 * FailedOperation.TemplateIncorrectOrUnapproved, FailedOperation.InsufficientBalanceInSmsPackage,
 * LimitExceeded.AppDailyLimit, UnauthorizedOperation.*, AuthFailure.*, InternalError.*…) is the operator's.
 */
export function tencentFailure(providerCode: string): SmsFailure {
  if (THROTTLED.has(providerCode)) return 'throttled';
  if (MOBILE_REJECTED.has(providerCode)) return 'mobile-rejected';
  return 'failed';
}

/**
 * Tencent Cloud SMS SendSms (API 3.0, version 2021-01-11) through the official SDK, which signs with
 * TC3-HMAC-SHA256. The SDK names the signing service after the first label of the endpoint's host ("sms" for
 * sms.tencentcloudapi.com), so SMS_ENDPOINT must keep that form to reach the real API. No retries: SendSms is not
 * idempotent, and a timed-out request may still have been delivered.
 */
export class TencentSmsProvider implements SmsProvider {
  private readonly client: InstanceType<typeof SmsClient>;

  constructor(
    private readonly options: SmsGatewayConfig & { sdkAppId: string },
    private readonly log: FastifyBaseLogger,
  ) {
    const endpoint = options.endpoint ? new URL(options.endpoint) : undefined;
    this.client = new SmsClient({
      credential: { secretId: options.accessKeyId, secretKey: options.accessKeySecret },
      region: options.region,
      profile: {
        httpProfile: {
          // Seconds; the SDK's default is 60.
          reqTimeout: options.timeoutMs / 1000,
          // Unset: https://sms.tencentcloudapi.com.
          ...(endpoint ? { endpoint: endpoint.host, protocol: `${endpoint.protocol}//` } : {}),
        },
      },
    });
  }

  async sendCode(mobile: string, code: string): Promise<void> {
    const refuse = sendRefusals(this.log, { provider: 'tencent', mobile, code }, tencentFailure);
    let status: { Code?: string; Message?: string } | undefined;
    try {
      const answer = await this.client.SendSms({
        PhoneNumberSet: [`+86${mobile}`],
        SmsSdkAppId: this.options.sdkAppId,
        SignName: this.options.signName,
        TemplateId: this.options.templateCode,
        // The template's only variable: {1} in the approved template text.
        TemplateParamSet: [code],
      });
      status = answer.SendStatusSet?.[0];
    } catch (err) {
      // Response.Error (keys, signature, template, balance…), a non-200 answer, network errors and timeouts.
      const { code: errorCode, text } = describeError(err);
      const httpCode = (err as { httpCode?: number }).httpCode;
      throw refuse(errorCode ?? (httpCode ? `HTTP ${httpCode}` : 'RequestFailed'), text);
    }
    // A call that succeeded still answers per number: Code "Ok" or the reason that number got nothing.
    if (status?.Code !== 'Ok') throw refuse(status?.Code ?? 'NoSendStatus', status?.Message);
  }
}
