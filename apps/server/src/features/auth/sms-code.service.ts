import type { SmsScene } from '@huafang/contracts';
import { fail, tooManyRequests } from '../../platform/errors.js';
import { isoIn, newId, nowIso, sha256, sixDigitCode } from '../../platform/ids.js';
import { type SmsFailure, type SmsProvider, SmsSendError } from '../../platform/sms/sms-provider.js';
import type { Repositories } from '../../repositories.js';
import type { SmsCodeRepository } from './sms-code.repository.js';

export const SMS_CODE_TTL_MS = 5 * 60_000;
export const SMS_MAX_WRONG_TRIES = 5;

/** What the user reads when the gateway did not send (docs/accounts.md § 短信通道). */
const SEND_FAILURE_MESSAGES: Record<SmsFailure, string> = {
  throttled: '短信发送过于频繁，请稍后再试',
  'mobile-rejected': '该手机号无法接收短信，请检查号码是否正确',
  failed: '短信发送失败，请稍后再试',
};

/** Verification codes: 6 digits, valid 5 minutes, single use, at most 5 wrong tries, one send per interval (60 s). */
export class SmsCodeService {
  private readonly codes: SmsCodeRepository;

  constructor(
    repos: Repositories,
    private readonly provider: SmsProvider,
    private readonly resendIntervalMs: number,
    private readonly clock: () => number = Date.now,
  ) {
    this.codes = repos.smsCodes;
  }

  async send(mobile: string, scene: SmsScene): Promise<{ resendAfter: number }> {
    const now = this.clock();
    // The slot is claimed before anything is sent: parallel requests (on any API process) cannot all pass.
    const claimed = await this.codes.claimSendSlot(
      mobile,
      new Date(now).toISOString(),
      new Date(now - this.resendIntervalMs).toISOString(),
    );
    if (!claimed) {
      const last = await this.codes.lastSentAt(mobile);
      // The clock is read again: the winner may have read it after `now`, and the wait is never past the interval.
      const wait = last ? Date.parse(last) + this.resendIntervalMs - this.clock() : this.resendIntervalMs;
      const seconds = Math.ceil(Math.min(Math.max(wait, 1000), this.resendIntervalMs) / 1000);
      throw tooManyRequests(`验证码发送过于频繁，请 ${seconds} 秒后再试`);
    }
    const code = sixDigitCode();
    const id = newId();
    await this.codes.insert({
      id,
      mobile,
      scene,
      // The code is salted with the mobile so equal codes of two mobiles hash apart.
      code_hash: sha256(`${mobile}:${code}`),
      attempts: 0,
      expires_at: isoIn(SMS_CODE_TTL_MS, now),
      used_at: null,
      created_at: new Date(now).toISOString(),
    });
    try {
      await this.provider.sendCode(mobile, code);
    } catch (err) {
      // Nobody may use a code the gateway did not send (after a timeout it may still arrive). The slot stays
      // claimed, so the failed attempt counts toward the resend interval and a broken gateway is not hammered.
      await this.codes.markUsed(id, nowIso());
      if (err instanceof SmsSendError) throw fail(SEND_FAILURE_MESSAGES[err.failure]);
      throw err;
    }
    return { resendAfter: Math.ceil(this.resendIntervalMs / 1000) };
  }

  /** Expired codes are useless, and so are send slots whose resend interval is over. */
  deleteExpired() {
    const now = this.clock();
    return this.codes.deleteExpired(new Date(now).toISOString(), new Date(now - this.resendIntervalMs).toISOString());
  }

  /** Consumes the newest code of this scene or throws a Chinese message saying why not. */
  async verify(mobile: string, scene: SmsScene, code: string): Promise<void> {
    const row = await this.codes.latestOfScene(mobile, scene);
    if (!row || row.used_at) throw fail('验证码无效，请重新获取');
    if (Date.parse(row.expires_at) <= this.clock()) throw fail('验证码已过期，请重新获取');
    // The try is taken before the code is compared: a guess that finds no try left is not checked at all.
    const tries = await this.codes.takeTry(row.id, SMS_MAX_WRONG_TRIES);
    if (tries === null) {
      const current = await this.codes.find(row.id);
      throw fail(current?.used_at ? '验证码无效，请重新获取' : '验证码错误次数过多，请重新获取');
    }
    if (row.code_hash !== sha256(`${mobile}:${code}`)) {
      const left = SMS_MAX_WRONG_TRIES - tries;
      throw fail(left > 0 ? `验证码错误，还可尝试 ${left} 次` : '验证码错误次数过多，请重新获取');
    }
    if (!(await this.codes.markUsed(row.id, nowIso()))) throw fail('验证码无效，请重新获取');
  }
}
