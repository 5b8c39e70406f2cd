import type { FastifyBaseLogger } from 'fastify';

/** Sends a verification code to a mobile. Real gateways implement this; the console one logs it. */
export interface SmsProvider {
  sendCode(mobile: string, code: string): Promise<void>;
}

/** Development provider: exactly one log line per code, the only place the code appears. */
export class ConsoleSmsProvider implements SmsProvider {
  constructor(private readonly log: FastifyBaseLogger) {}

  async sendCode(mobile: string, code: string): Promise<void> {
    this.log.info(`SMS code for ${mobile}: ${code}`);
  }
}
