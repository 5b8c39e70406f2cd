import { expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { ADMIN, createTestApp, PASSWORD, registerUser, uniqueMobile } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const DELAY_AFTER = 5;
const MAX_FAILURES = 10;
const LOCK_MINUTES = 15;

const WRONG_PASSWORD = 'Wrong1234';
const WAIT = /^尝试过于频繁，请 (\d+) 秒后再试$/;
const PASSWORD_LOCKED = `密码错误次数过多，账号已临时锁定，请 ${LOCK_MINUTES} 分钟后再试，或使用短信验证码登录`;
const SMS_LOCKED = `验证码错误次数过多，短信验证已临时锁定，请 ${LOCK_MINUTES} 分钟后再试`;

describeServer('auth: per-account login protection', () => {
  // The per-address limit is set high by createTestApp, so only the per-account rules answer here.
  const ctx = useTestApp({
    config: { loginGuard: { delayAfter: DELAY_AFTER, maxFailures: MAX_FAILURES, lockMs: LOCK_MINUTES * 60_000 } },
  });

  const passwordLogin = (account: string, password: string) =>
    ctx.app.call('POST', '/api/auth/account', { body: { account, password } });

  /** Wrong passwords one after another, waiting out each slow-down, until the lock answers; returns every msg. */
  async function wrongUntilLocked(account: string): Promise<string[]> {
    const msgs: string[] = [];
    for (let i = 0; i < 3 * MAX_FAILURES && !msgs.includes(PASSWORD_LOCKED); i++) {
      const { body } = await passwordLogin(account, WRONG_PASSWORD);
      expect(body.code).not.toBe(0);
      msgs.push(body.msg);
      const wait = WAIT.exec(body.msg);
      if (wait) ctx.app.advanceClock(Number(wait[1]) * 1000);
    }
    return msgs;
  }

  /** How many of these answers came from actually checking the password. */
  const checked = (msgs: string[]) => msgs.filter((m) => m === '账号或密码错误' || m === PASSWORD_LOCKED).length;

  it('checks at most the configured number of 60 concurrent wrong passwords, then locks with a Chinese message', async () => {
    const user = await registerUser(ctx.app);
    const burst = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        ctx.app.app.inject({
          method: 'POST',
          url: '/api/auth/account',
          headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
          payload: { account: user.account, password: WRONG_PASSWORD },
        }),
      ),
    );
    const burstMsgs = burst.map((res) => res.json().msg as string);
    expect(burst.every((res) => res.json().code === -1)).toBe(true);
    expect(checked(burstMsgs)).toBeLessThanOrEqual(DELAY_AFTER);
    expect(burstMsgs.filter((m) => WAIT.test(m)).length).toBeGreaterThanOrEqual(60 - DELAY_AFTER);

    const rest = await wrongUntilLocked(user.account);
    expect(rest.at(-1)).toBe(PASSWORD_LOCKED);
    expect(checked(burstMsgs) + checked(rest)).toBeLessThanOrEqual(MAX_FAILURES);

    // The right password does not open a locked account, by account name or by mobile.
    expect((await passwordLogin(user.account, PASSWORD)).body).toMatchObject({ code: -1, msg: PASSWORD_LOCKED });
    expect((await passwordLogin(user.mobile, PASSWORD)).body).toMatchObject({ code: -1, msg: PASSWORD_LOCKED });

    // The way back in: an SMS-code login clears the lock.
    ctx.app.advanceClock(61_000);
    await ctx.app.call('POST', '/api/auth/sendCode', { body: { mobile: user.mobile } });
    const bySms = await ctx.app.call('POST', '/api/auth/mobile', {
      body: { mobile: user.mobile, code: ctx.app.smsCode(user.mobile) },
    });
    expect(bySms.body).toMatchObject({ code: 0, msg: '登录成功' });
    expect((await passwordLogin(user.account, PASSWORD)).body).toMatchObject({ code: 0, msg: '登录成功' });
    // …and the counter: the next wrong password is an ordinary one again.
    expect((await passwordLogin(user.account, WRONG_PASSWORD)).body.msg).toBe('账号或密码错误');
  });

  it('opens a locked account again once the lock period has passed', async () => {
    const user = await registerUser(ctx.app);
    expect((await wrongUntilLocked(user.mobile)).at(-1)).toBe(PASSWORD_LOCKED);
    ctx.app.advanceClock((LOCK_MINUTES - 1) * 60_000);
    expect((await passwordLogin(user.account, PASSWORD)).body.msg).toMatch(
      /^密码错误次数过多，账号已临时锁定，请 1 分钟/,
    );
    ctx.app.advanceClock(60_000);
    expect((await passwordLogin(user.account, PASSWORD)).body).toMatchObject({ code: 0, msg: '登录成功' });
  });

  it('answers an unknown mobile exactly as a registered one, lock included', async () => {
    const user = await registerUser(ctx.app);
    const known = await wrongUntilLocked(user.mobile);
    const unknown = await wrongUntilLocked(uniqueMobile());
    expect(known.at(-1)).toBe(PASSWORD_LOCKED);
    expect(unknown).toEqual(known);
  });

  it('slows down and locks an unknown account name too, after the same number of tries', async () => {
    const account = `ghost${Date.now() % 1_000_000}`;
    const burst = await Promise.all(Array.from({ length: 20 }, () => passwordLogin(account, WRONG_PASSWORD)));
    expect(burst.filter((res) => res.body.code === 405).length).toBeLessThanOrEqual(DELAY_AFTER);
    expect(burst.filter((res) => WAIT.test(res.body.msg)).length).toBeGreaterThanOrEqual(20 - DELAY_AFTER);
    expect((await wrongUntilLocked(account)).at(-1)).toBe(PASSWORD_LOCKED);
  });

  it('protects the admin login the same way', async () => {
    const burst = await Promise.all(Array.from({ length: 20 }, () => passwordLogin(ADMIN.account, WRONG_PASSWORD)));
    expect(checked(burst.map((res) => res.body.msg))).toBeLessThanOrEqual(DELAY_AFTER);
    expect((await wrongUntilLocked(ADMIN.account)).at(-1)).toBe(PASSWORD_LOCKED);
    expect((await passwordLogin(ADMIN.account, ADMIN.password)).body.msg).toBe(PASSWORD_LOCKED);
    ctx.app.advanceClock(LOCK_MINUTES * 60_000);
    expect((await passwordLogin(ADMIN.account, ADMIN.password)).body).toMatchObject({ code: 0 });
  });

  it('locks SMS login after wrong codes across several sent codes, until the lock period has passed', async () => {
    const user = await registerUser(ctx.app);
    const smsLogin = (code: string) =>
      ctx.app.call('POST', '/api/auth/mobile', { body: { mobile: user.mobile, code } });
    const msgs: string[] = [];
    // Each new code allows a few guesses; asking for new codes must not buy new guesses forever.
    for (let sent = 0; sent < 3 * MAX_FAILURES && !msgs.includes(SMS_LOCKED); sent++) {
      ctx.app.advanceClock(61_000);
      await ctx.app.call('POST', '/api/auth/sendCode', { body: { mobile: user.mobile } });
      const code = ctx.app.smsCode(user.mobile);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 2; i++) msgs.push((await smsLogin(wrong)).body.msg);
    }
    expect(msgs.at(-1)).toBe(SMS_LOCKED);
    expect(msgs.filter((m) => m.startsWith('验证码错误，')).length).toBeLessThan(MAX_FAILURES);

    ctx.app.advanceClock(61_000);
    await ctx.app.call('POST', '/api/auth/sendCode', { body: { mobile: user.mobile } });
    const locked = (await smsLogin(ctx.app.smsCode(user.mobile))).body;
    expect(locked).toMatchObject({
      code: -1,
      msg: expect.stringMatching(/^验证码错误次数过多，短信验证已临时锁定，请 14 分钟后再试$/),
    });
    // The password still works while SMS login is locked.
    expect((await passwordLogin(user.account, PASSWORD)).body).toMatchObject({ code: 0 });

    ctx.app.advanceClock(LOCK_MINUTES * 60_000);
    await ctx.app.call('POST', '/api/auth/sendCode', { body: { mobile: user.mobile } });
    expect((await smsLogin(ctx.app.smsCode(user.mobile))).body).toMatchObject({ code: 0, msg: '登录成功' });
  });

  it('keeps a live lock through the hourly sweep, and forgets failures a day old', async () => {
    const user = await registerUser(ctx.app);
    expect((await wrongUntilLocked(user.account)).at(-1)).toBe(PASSWORD_LOCKED);
    await ctx.app.services.auth.sweepExpired();
    expect((await passwordLogin(user.account, PASSWORD)).body.msg).toMatch(/^密码错误次数过多/);

    ctx.app.advanceClock(24 * 3600_000);
    await ctx.app.services.auth.sweepExpired();
    expect((await passwordLogin(user.account, WRONG_PASSWORD)).body.msg).toBe('账号或密码错误');
  });

  it('answers password logins in Chinese, never 500, with far more allowed failures than the setting takes', async () => {
    // Past LOGIN_MAX_FAILURES' bound (config refuses it): every try plans waits up to 2^58 × 5 s, which once made
    // an Invalid Date; the doubling now stops at the lock time (reached after 8 doublings of 5 s).
    const lockMs = LOCK_MINUTES * 60_000;
    const lenient = await createTestApp({ loginGuard: { delayAfter: 1, maxFailures: 60, lockMs } });
    try {
      const user = await registerUser(lenient);
      const login = (password: string) =>
        lenient.call('POST', '/api/auth/account', { body: { account: user.account, password } });
      const waits: number[] = [];
      for (let i = 0; i < 12; i++) {
        const { status, body } = await login(WRONG_PASSWORD);
        expect(status, body.msg).toBe(200);
        expect(body).toMatchObject({ code: -1, msg: '账号或密码错误' });
        const slowed = await login(WRONG_PASSWORD);
        const wait = WAIT.exec(slowed.body.msg);
        expect(wait, slowed.body.msg).not.toBeNull();
        waits.push(Number(wait?.[1]));
        lenient.advanceClock(Number(wait?.[1]) * 1000);
      }
      expect(Math.max(...waits)).toBe(LOCK_MINUTES * 60);
      expect((await login(PASSWORD)).body.code).toBe(0);
    } finally {
      await lenient.close();
    }
  });
});
