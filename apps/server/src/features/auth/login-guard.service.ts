import type { Config } from '../../config.js';
import { type BizError, fail } from '../../platform/errors.js';
import type { Repositories } from '../../repositories.js';
import type { BlockSchedule, LoginGuardRepository } from './login-guard.repository.js';

/** The first slow-down; each further failure doubles it until the lock. */
const FIRST_DELAY_MS = 5_000;
/** Failures not followed by another for this long are forgotten. */
const FORGET_AFTER_MS = 24 * 3600_000;

type Policy = Config['loginGuard'];

/** A counted try: the caller checks the password or code, then reports success or lets this word the failure. */
export class LoginTry {
  constructor(
    /** A failure of this try starts the lock. */
    private readonly locks: boolean,
    private readonly lockMessage: string,
  ) {}

  /** The answer to a failed try: the lock message once the lock starts, otherwise the check's own answer. */
  async failed(answer: () => BizError | Promise<BizError>): Promise<BizError> {
    return this.locks ? fail(this.lockMessage) : answer();
  }
}

/**
 * Per-account login protection (docs/accounts.md § 登录保护). A try is counted as a failure before it is checked
 * and the count is cleared on success, so concurrent tries cannot check more than the limits allow.
 */
export class LoginGuardService {
  private readonly failures: LoginGuardRepository;

  constructor(
    repos: Repositories,
    private readonly policy: Policy,
    private readonly clock: () => number = Date.now,
  ) {
    this.failures = repos.loginFailures;
  }

  /** Password logins of a user, or of an identifier no user has (answered the same way). */
  passwordTry(who: { userId: string } | { identifier: string }): Promise<LoginTry> {
    const key = 'userId' in who ? `password:user:${who.userId}` : `password:identifier:${who.identifier}`;
    return this.begin(
      key,
      this.policy.delayAfter,
      (minutes) => `密码错误次数过多，账号已临时锁定，请 ${minutes} 分钟后再试，或使用短信验证码登录`,
    );
  }

  /** Successful password login, SMS-code login or password reset: the user's password tries start over. */
  passwordSucceeded(userId: string): Promise<void> {
    return this.failures.clear(`password:user:${userId}`);
  }

  /**
   * SMS-code checks of a mobile (login and password reset), across codes. No slow-down of its own: one code per
   * resend interval with its own few tries already paces them; the lock stops guessing code after code.
   */
  smsTry(mobile: string): Promise<LoginTry> {
    return this.begin(
      `sms:${mobile}`,
      Number.POSITIVE_INFINITY,
      (minutes) => `验证码错误次数过多，短信验证已临时锁定，请 ${minutes} 分钟后再试`,
    );
  }

  smsSucceeded(mobile: string): Promise<void> {
    return this.failures.clear(`sms:${mobile}`);
  }

  /** Housekeeping: counts nobody has added to for a day. */
  forgetStale(): Promise<void> {
    const now = this.clock();
    return this.failures.deleteStale(new Date(now - FORGET_AFTER_MS).toISOString(), new Date(now).toISOString());
  }

  private async begin(key: string, delayAfter: number, lockMessage: (minutes: number) => string): Promise<LoginTry> {
    const now = this.clock();
    const count = await this.failures.count(key, new Date(now).toISOString(), this.schedule(now, delayAfter));
    if (count !== null) {
      return new LoginTry(count >= this.policy.maxFailures, lockMessage(Math.ceil(this.policy.lockMs / 60_000)));
    }
    const row = await this.failures.find(key);
    // The clock is read again: a try that blocked this key concurrently may have read it after `now`, and the wait
    // must not come out longer than the lock. The block may also have ended since: a second, never zero.
    const waitMs = Math.max(1000, row?.blocked_until ? Date.parse(row.blocked_until) - this.clock() : 0);
    if (row && row.failures >= this.policy.maxFailures) throw fail(lockMessage(Math.ceil(waitMs / 60_000)));
    throw fail(`尝试过于频繁，请 ${Math.ceil(waitMs / 1000)} 秒后再试`);
  }

  /** Waits after counts from `delayAfter` on: 5 s, doubling, never longer than the lock; the lock from `maxFailures` on. */
  private schedule(now: number, delayAfter: number): BlockSchedule {
    const { maxFailures, lockMs } = this.policy;
    const slowedUntil = new Map<number, string>();
    for (let failures = delayAfter; failures < maxFailures; failures++) {
      // Unbounded, the doubling passes the largest date after about 40 steps (an Invalid Date answered 500).
      const delayMs = Math.min(FIRST_DELAY_MS * 2 ** (failures - delayAfter), lockMs);
      slowedUntil.set(failures, new Date(now + delayMs).toISOString());
    }
    return { lockFrom: maxFailures, lockedUntil: new Date(now + lockMs).toISOString(), slowedUntil };
  }
}
