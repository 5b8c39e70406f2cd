import type { FastifyBaseLogger } from 'fastify';

/** Sends a verification code to a mobile. Real gateways implement this; the console one logs it. */
export interface SmsProvider {
  /** Throws SmsSendError when the code did not go out. */
  sendCode(mobile: string, code: string): Promise<void>;
}

/**
 * Why a gateway did not send, as far as the user is concerned: its flow control for this number, a number it
 * will not deliver to, or anything else (network, timeout, keys, signature, template, balance).
 */
export type SmsFailure = 'throttled' | 'mobile-rejected' | 'failed';

/** A send that did not happen; the gateway already logged the details, so this carries only the kind. */
export class SmsSendError extends Error {
  constructor(readonly failure: SmsFailure) {
    super(`SMS not sent: ${failure}`);
    this.name = 'SmsSendError';
  }
}

/** Development provider: exactly one log line per code, the only place the code appears. */
export class ConsoleSmsProvider implements SmsProvider {
  constructor(private readonly log: FastifyBaseLogger) {}

  async sendCode(mobile: string, code: string): Promise<void> {
    this.log.info(`SMS code for ${mobile}: ${code}`);
  }
}

type GatewayRefusal = {
  provider: string;
  mobile: string;
  /** The verification code: blanked out of the detail before it is logged. */
  code: string;
  /** The provider's error code (isv.BUSINESS_LIMIT_CONTROL, LimitExceeded.PhoneNumberDailyLimit, ECONNREFUSED…). */
  providerCode: string;
  /** The provider's or the network's own words; may quote the request, so it is scrubbed. */
  detail: string | undefined;
  failure: SmsFailure;
};

/**
 * Logs a gateway failure with the provider's error code, never the verification code (an SDK error message can
 * quote the request URL, TemplateParam included), and returns the error to throw. Failures an operator must fix
 * (keys, signature, template, balance, an unreachable provider) are errors; the user-level ones are warnings.
 */
function gatewayFailure(log: FastifyBaseLogger, refusal: GatewayRefusal): SmsSendError {
  const entry = {
    provider: refusal.provider,
    providerCode: refusal.providerCode,
    failure: refusal.failure,
    mobile: `${refusal.mobile.slice(0, 3)}****${refusal.mobile.slice(7)}`,
    detail: refusal.detail?.replaceAll(refusal.code, '******').slice(0, 500),
  };
  if (refusal.failure === 'failed') log.error(entry, 'SMS gateway failed to send a code');
  else log.warn(entry, 'SMS gateway refused to send a code');
  return new SmsSendError(refusal.failure);
}

/**
 * The refusals of one send: given the provider's error code and its words, logs them (gatewayFailure) with the
 * kind `failureOf` reads from the code, and returns the error to throw.
 */
export function sendRefusals(
  log: FastifyBaseLogger,
  send: { provider: string; mobile: string; code: string },
  failureOf: (providerCode: string) => SmsFailure,
): (providerCode: string, detail: string | undefined) => SmsSendError {
  return (providerCode, detail) =>
    gatewayFailure(log, { ...send, providerCode, detail, failure: failureOf(providerCode) });
}

/** The code and text of whatever an SDK threw: a provider error, a Node network error, a timeout. */
export function describeError(err: unknown): { code: string | undefined; text: string } {
  if (!(err instanceof Error)) return { code: undefined, text: String(err) };
  const code = (err as { code?: unknown }).code;
  return { code: typeof code === 'string' && code !== '' ? code : undefined, text: `${err.name}: ${err.message}` };
}
