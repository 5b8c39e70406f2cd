import { randomBytes } from 'node:crypto';
import {
  ACCOUNT_PATTERN,
  BizCode,
  type LoginResult,
  MOBILE_PATTERN,
  type MobileLoginOrSignUpResult,
  MSG,
  type SignUpBody,
  type SignUpResult,
  type SmsScene,
} from '@huafang/contracts';
import { hashPassword, verifyPassword } from '../../platform/auth/password.js';
import { BizError, fail } from '../../platform/errors.js';
import { isoIn, newId, nowIso } from '../../platform/ids.js';
import type { Repositories } from '../../repositories.js';
import type { ApiKeyService } from '../api-keys/api-key.service.js';
import type { AuditOrigin, AuditRecorder } from '../audit/audit-recorder.js';
import type { UserRepository, UserRow } from '../user/user.repository.js';
import type { LoginGuardService } from './login-guard.service.js';
import type { RegistrationRepository } from './registration.repository.js';
import { ACCOUNT_DISABLED, type SessionService } from './session.service.js';
import type { SmsCodeService } from './sms-code.service.js';

const REGISTRATION_TTL_MS = 30 * 60_000;
const RESET_TOKEN_TTL_MS = 10 * 60_000;

export function loginResultOf(token: string, isAdmin: boolean): LoginResult {
  return { token, admin: isAdmin ? 'true' : 'false', permissions: isAdmin ? ['user', 'admin'] : ['user'] };
}

/** An account name for users who register by mobile alone, so every user can also log in by account. */
function generatedAccount(): string {
  return `hf${randomBytes(6).toString('hex')}`;
}

export class AuthService {
  private readonly users: UserRepository;
  private readonly registrations: RegistrationRepository;

  constructor(
    private readonly repos: Repositories,
    private readonly sessions: SessionService,
    private readonly smsCodes: SmsCodeService,
    private readonly newUserCredits: number,
    private readonly guard: LoginGuardService,
    private readonly audit: AuditRecorder,
    private readonly apiKeys: ApiKeyService,
  ) {
    this.users = repos.users;
    this.registrations = repos.registrations;
  }

  async sendCode(mobile: string, scene: SmsScene) {
    const owner = await this.users.findByMobile(mobile);
    if (scene === 'bind' && owner) throw fail('该手机号已被其他账号绑定');
    if ((scene === 'reset' || scene === 'unbind') && !owner) throw fail('该手机号未注册');
    return this.smsCodes.send(mobile, scene);
  }

  loginByMobile(mobile: string, code: string, origin: AuditOrigin): Promise<LoginResult> {
    return this.login(origin, 'sms', mobile, async (seen) => {
      await this.checkSmsCode(mobile, 'login', code);
      seen.user = await this.users.findByMobile(mobile);
      if (!seen.user) throw await this.unregistered({ mobile }, '该手机号尚未注册，请设置密码完成注册');
      return seen.user;
    });
  }

  /**
   * One step by SMS: a registered mobile logs in; a new one gets an account at once (a generated account name,
   * no password: it can be set later in 个人信息) and is logged in. The spec's `/auth/mobile` keeps answering 405.
   */
  async loginOrSignUpByMobile(mobile: string, code: string, origin: AuditOrigin): Promise<MobileLoginOrSignUpResult> {
    let created = false;
    const result = await this.login(origin, 'sms', mobile, async (seen) => {
      await this.checkSmsCode(mobile, 'login', code);
      seen.user = await this.users.findByMobile(mobile);
      if (!seen.user) {
        seen.user = await this.createByMobile(mobile, origin);
        created = true;
      }
      return seen.user;
    });
    return { ...result, created };
  }

  loginByAccount(account: string, password: string, origin: AuditOrigin): Promise<LoginResult> {
    return this.login(origin, 'password', account, async (seen) => {
      const user = MOBILE_PATTERN.test(account)
        ? await this.users.findByMobile(account)
        : await this.users.findByAccount(account);
      seen.user = user;
      // Unknown identifiers are counted too, so the slow-down and the lock do not tell whether an account exists.
      const attempt = await this.guard.passwordTry(user ? { userId: user.id } : { identifier: account });
      if (!user) {
        throw await attempt.failed(() =>
          ACCOUNT_PATTERN.test(account) ? this.unregistered({ account }, MSG.unregistered) : fail(MSG.wrongCredentials),
        );
      }
      if (!user.password_hash || !(await verifyPassword(user.password_hash, password))) {
        throw await attempt.failed(() => fail(MSG.wrongCredentials));
      }
      return user;
    });
  }

  /**
   * Starts a session for the user `identify` proves, and records the attempt either way. `seen.user` is the user
   * as soon as they are known, so a failure after that (a wrong password) is recorded against them.
   */
  private async login(
    origin: AuditOrigin,
    method: 'password' | 'sms',
    identifier: string,
    identify: (seen: { user?: UserRow }) => Promise<UserRow>,
  ): Promise<LoginResult> {
    const seen: { user?: UserRow } = {};
    try {
      const user = await identify(seen);
      // A successful login lifts a password lock: the SMS login is the way back in after one.
      await this.guard.passwordSucceeded(user.id);
      const result = await this.startSession(user);
      this.recordLogin(origin, method, identifier, user.id, null);
      return result;
    } catch (error) {
      this.recordLogin(origin, method, identifier, seen.user?.id ?? null, error);
      throw error;
    }
  }

  /**
   * auth.login, or auth.login_failed with the message the caller got. A mobile number is kept masked; an account
   * name is kept as typed, so failures against names that do not exist can be found too.
   */
  private recordLogin(
    origin: AuditOrigin,
    method: 'password' | 'sms',
    identifier: string,
    userId: string | null,
    error: unknown,
  ): void {
    const byMobile = MOBILE_PATTERN.test(identifier);
    this.audit.record({
      action: error ? 'auth.login_failed' : 'auth.login',
      userId,
      origin,
      ...(byMobile && !userId ? { mobile: identifier } : {}),
      detail: {
        method,
        ...(byMobile ? {} : { account: identifier }),
        ...(error ? { reason: error instanceof BizError ? error.message : MSG.serverError } : {}),
      },
    });
  }

  /** The account of a verified new mobile. A parallel sign-up of the same mobile loses on its unique index. */
  private async createByMobile(mobile: string, origin: AuditOrigin): Promise<UserRow> {
    const now = nowIso();
    const row = {
      ...this.newUserRow(newId(), generatedAccount(), now),
      mobile,
    };
    try {
      await this.users.insert(row);
    } catch (error) {
      if (await this.users.findByMobile(mobile)) throw fail('该手机号已注册');
      throw error;
    }
    this.audit.record({ action: 'auth.register', userId: row.id, origin, detail: { account: row.account } });
    return (await this.users.findById(row.id)) as UserRow;
  }

  private newUserRow(id: string, account: string, now: string) {
    return {
      id,
      account,
      mobile: null as string | null,
      password_hash: null as string | null,
      nickname: null,
      avatar_file_id: null,
      is_admin: 0,
      invite_code_id: null,
      code_type: null,
      credits: this.newUserCredits,
      disabled: 0,
      invite_skipped_at: null,
      account_renamed_at: null,
      created_at: now,
      updated_at: now,
    };
  }

  async signUp(body: SignUpBody, origin: AuditOrigin): Promise<SignUpResult> {
    const now = nowIso();
    const registration = await this.registrations.findOpen(body.userId, now);
    if (!registration) throw fail('注册信息已失效，请重新登录后注册');
    if (registration.account && body.account && body.account !== registration.account) {
      throw fail('注册账号与登录时填写的账号不一致');
    }
    const account = registration.account ?? body.account ?? generatedAccount();
    if (await this.users.findByAccount(account)) throw fail('该账号已被注册');
    if (registration.mobile && (await this.users.findByMobile(registration.mobile))) throw fail('该手机号已注册');

    const passwordHash = await hashPassword(body.password);
    const userId = newId();
    await this.repos.transaction(async (trx) => {
      if (!(await this.registrations.complete(registration.id, now, trx))) {
        throw fail('注册信息已失效，请重新登录后注册');
      }
      await this.users.insert(
        { ...this.newUserRow(userId, account, now), mobile: registration.mobile, password_hash: passwordHash },
        trx,
      );
    });
    const token = await this.sessions.issue(userId);
    this.audit.record({ action: 'auth.register', userId, origin, detail: { account } });
    return { userId, ...loginResultOf(token, false) };
  }

  async reVerify(mobile: string, code: string): Promise<{ token: string }> {
    await this.checkSmsCode(mobile, 'reset', code);
    const user = await this.users.findByMobile(mobile);
    if (!user) throw fail('该手机号未注册');
    return { token: await this.sessions.issue(user.id, 'reset', RESET_TOKEN_TTL_MS) };
  }

  async rePassword(resetToken: string, password: string): Promise<void> {
    const userId = await this.sessions.consumeResetToken(resetToken);
    if (!userId) throw fail('重置凭证无效或已过期，请重新验证手机号');
    await this.users.update(userId, { password_hash: await hashPassword(password), updated_at: nowIso() });
    // A reset is how an account is taken back: keys minted meanwhile stop with the sessions. Sessions first, so
    // that no session of a thief is left to mint a key after the keys were revoked.
    await this.sessions.revokeAllOfUser(userId);
    await this.apiKeys.revokeAllOfUser(userId);
    await this.guard.passwordSucceeded(userId);
  }

  /** Housekeeping: drops expired tokens, codes and pending registrations. */
  async sweepExpired(): Promise<void> {
    await this.sessions.deleteExpired();
    await this.smsCodes.deleteExpired();
    await this.registrations.deleteExpired(nowIso());
    await this.guard.forgetStale();
  }

  logout(sessionId: string) {
    return this.sessions.revoke(sessionId);
  }

  /** Consumes a code under the per-mobile guard: wrong codes count across codes, a right one clears the count. */
  private async checkSmsCode(mobile: string, scene: SmsScene, code: string): Promise<void> {
    const attempt = await this.guard.smsTry(mobile);
    try {
      await this.smsCodes.verify(mobile, scene, code);
    } catch (error) {
      throw error instanceof BizError ? await attempt.failed(() => error) : error;
    }
    await this.guard.smsSucceeded(mobile);
  }

  private async startSession(user: UserRow): Promise<LoginResult> {
    if (user.disabled) throw fail(ACCOUNT_DISABLED);
    return loginResultOf(await this.sessions.issue(user.id), user.is_admin === 1);
  }

  /** Opens a pending registration and answers body code 405 with its id (spec §4 Login). */
  private async unregistered(who: { mobile?: string; account?: string }, msg: string): Promise<BizError> {
    const id = newId();
    const now = Date.now();
    await this.registrations.insert({
      id,
      mobile: who.mobile ?? null,
      account: who.account ?? null,
      expires_at: isoIn(REGISTRATION_TTL_MS, now),
      completed_at: null,
      created_at: new Date(now).toISOString(),
    });
    return new BizError(BizCode.UNREGISTERED, msg, 200, { userId: id });
  }
}
