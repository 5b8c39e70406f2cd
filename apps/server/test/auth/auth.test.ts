import { expect, it } from 'vitest';
import { sha256 } from '../../src/platform/ids.js';
import { describeServer } from '../helpers/suite.js';
import { ADMIN, mentionsCode, PASSWORD, registerUser, uniqueMobile } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

describeServer('auth: codes, login, registration, tokens', () => {
  const ctx = useTestApp();

  const send = (mobile: string, scene?: string) =>
    ctx.app.call('POST', '/api/auth/sendCode', { body: { mobile, ...(scene ? { scene } : {}) } });

  it('logs exactly one line with the code per send, and nowhere else', async () => {
    const mobile = uniqueMobile();
    const before = ctx.app.logLines.length;
    const res = await send(mobile);
    expect(res.body).toMatchObject({ code: 0, data: { resendAfter: 60 } });
    const code = ctx.app.smsCode(mobile);
    expect(code).toMatch(/^\d{6}$/);
    const mentioning = ctx.app.logLines.slice(before).filter((l) => mentionsCode(l, code));
    expect(mentioning).toHaveLength(1);
    expect(JSON.stringify(res.body)).not.toContain(code);
  });

  it('refuses a second code to the same mobile within 60 s, with HTTP 429', async () => {
    const mobile = uniqueMobile();
    await send(mobile);
    const again = await send(mobile);
    expect(again.status).toBe(429);
    expect(again.body.code).toBe(-1);
    expect(again.body.msg).toMatch(/秒后再试/);
    ctx.app.advanceClock(61_000);
    expect((await send(mobile)).body.code).toBe(0);
  });

  it('rejects a malformed mobile, naming the field', async () => {
    for (const mobile of ['1380000000', '23800000000', '1380000000a', '']) {
      const res = await send(mobile);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: -1 });
      expect(res.body.msg).toContain('手机号');
    }
    const missing = await ctx.app.call('POST', '/api/auth/sendCode', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toContain('手机号');
  });

  it('answers 405 with a pending userId for an unregistered mobile, then signUp logs in', async () => {
    const mobile = uniqueMobile();
    await send(mobile);
    const login = await ctx.app.call('POST', '/api/auth/mobile', { body: { mobile, code: ctx.app.smsCode(mobile) } });
    expect(login.body.code).toBe(405);
    expect(login.body.msg).toMatch(/未注册/);
    expect(typeof login.body.data.userId).toBe('string');

    const signUp = await ctx.app.call('POST', '/api/auth/signUp', {
      body: { userId: login.body.data.userId, password: PASSWORD, account: `u${mobile}` },
    });
    expect(signUp.body).toMatchObject({ code: 0, data: { admin: 'false', permissions: ['user'] } });
    const me = await ctx.app.call('GET', '/api/user/currentUser', { token: signUp.body.data.token });
    expect(me.body.data).toMatchObject({
      account: `u${mobile}`,
      mobile: `${mobile.slice(0, 3)}****${mobile.slice(7)}`,
    });

    // The pending registration is used up.
    const twice = await ctx.app.call('POST', '/api/auth/signUp', {
      body: { userId: login.body.data.userId, password: PASSWORD },
    });
    expect(twice.body.code).toBe(-1);

    // A registered mobile now logs in directly.
    ctx.app.advanceClock(61_000);
    await send(mobile);
    const again = await ctx.app.call('POST', '/api/auth/mobile', { body: { mobile, code: ctx.app.smsCode(mobile) } });
    expect(again.body).toMatchObject({ code: 0, msg: '登录成功', data: { admin: 'false' } });
  });

  it('rejects a wrong code, then counts at most 5 wrong tries', async () => {
    const mobile = uniqueMobile();
    await send(mobile);
    const code = ctx.app.smsCode(mobile);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 5; i++) {
      const res = await ctx.app.call('POST', '/api/auth/mobile', { body: { mobile, code: wrong } });
      expect(res.body.code).toBe(-1);
      expect(res.body.msg).toMatch(/验证码错误/);
    }
    const right = await ctx.app.call('POST', '/api/auth/mobile', { body: { mobile, code } });
    expect(right.body).toMatchObject({ code: -1, msg: '验证码错误次数过多，请重新获取' });
  });

  it('rejects an expired code (older than 5 minutes)', async () => {
    const mobile = uniqueMobile();
    await send(mobile);
    ctx.app.advanceClock(5 * 60_000 + 1000);
    const res = await ctx.app.call('POST', '/api/auth/mobile', { body: { mobile, code: ctx.app.smsCode(mobile) } });
    expect(res.body).toMatchObject({ code: -1, msg: '验证码已过期，请重新获取' });
  });

  it('rejects a reused code', async () => {
    const user = await registerUser(ctx.app);
    ctx.app.advanceClock(61_000);
    await send(user.mobile);
    const code = ctx.app.smsCode(user.mobile);
    expect((await ctx.app.call('POST', '/api/auth/mobile', { body: { mobile: user.mobile, code } })).body.code).toBe(0);
    const reused = await ctx.app.call('POST', '/api/auth/mobile', { body: { mobile: user.mobile, code } });
    expect(reused.body).toMatchObject({ code: -1, msg: '验证码无效，请重新获取' });
  });

  it('logs in by account or mobile with a password; a wrong password never says which part is wrong', async () => {
    const user = await registerUser(ctx.app);
    const byAccount = await ctx.app.call('POST', '/api/auth/account', {
      body: { account: user.account, password: PASSWORD },
    });
    expect(byAccount.body).toMatchObject({ code: 0, msg: '登录成功' });
    const byMobile = await ctx.app.call('POST', '/api/auth/account', {
      body: { account: user.mobile, password: PASSWORD },
    });
    expect(byMobile.body.code).toBe(0);
    const wrong = await ctx.app.call('POST', '/api/auth/account', {
      body: { account: user.account, password: 'Wrong1234' },
    });
    expect(wrong.body).toMatchObject({ code: -1, msg: '账号或密码错误' });
  });

  it('answers 405 for an unknown account and registers it with signUp', async () => {
    const account = `new${Date.now() % 1_000_000}`;
    const res = await ctx.app.call('POST', '/api/auth/account', { body: { account, password: 'whatever1' } });
    expect(res.body.code).toBe(405);
    const signUp = await ctx.app.call('POST', '/api/auth/signUp', {
      body: { userId: res.body.data.userId, password: PASSWORD },
    });
    expect(signUp.body.code).toBe(0);
    const login = await ctx.app.call('POST', '/api/auth/account', { body: { account, password: PASSWORD } });
    expect(login.body.code).toBe(0);
  });

  it('refuses a duplicate account and a weak password', async () => {
    const taken = await registerUser(ctx.app, { account: `dup${Date.now() % 1_000_000}` });
    const mobile = uniqueMobile();
    await send(mobile);
    const login = await ctx.app.call('POST', '/api/auth/mobile', { body: { mobile, code: ctx.app.smsCode(mobile) } });
    const userId = login.body.data.userId;

    const dup = await ctx.app.call('POST', '/api/auth/signUp', {
      body: { userId, password: PASSWORD, account: taken.account },
    });
    expect(dup.body).toMatchObject({ code: -1, msg: '该账号已被注册' });

    for (const [password, message] of [
      ['short1', '密码长度至少 8 位'],
      ['onlyletters', '密码必须同时包含字母和数字'],
      ['12345678', '密码必须同时包含字母和数字'],
      ['has space 1', '密码只能包含字母、数字和英文符号，不能有空格'],
    ]) {
      const weak = await ctx.app.call('POST', '/api/auth/signUp', { body: { userId, password } });
      expect(weak.status).toBe(400);
      expect(weak.body).toMatchObject({ code: -1, msg: message });
    }
    // Nothing was lost: the registration still completes with a good password.
    const good = await ctx.app.call('POST', '/api/auth/signUp', { body: { userId, password: PASSWORD } });
    expect(good.body.code).toBe(0);
  });

  it('logs the first admin in with admin permissions', async () => {
    const res = await ctx.app.call('POST', '/api/auth/account', { body: ADMIN });
    expect(res.body).toMatchObject({ code: 0, data: { admin: 'true', permissions: ['user', 'admin'] } });
  });

  it('rejects a logged-out token, an expired token and a made-up token with 401', async () => {
    const user = await registerUser(ctx.app);
    expect((await ctx.app.call('GET', '/api/user/currentUser', { token: user.token })).status).toBe(200);
    const out = await ctx.app.call('POST', '/api/auth/outLogin', { token: user.token });
    expect(out.body.code).toBe(0);
    const after = await ctx.app.call('GET', '/api/user/currentUser', { token: user.token });
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ code: 401, msg: '登录已失效，请重新登录' });

    const login = await ctx.app.call('POST', '/api/auth/account', {
      body: { account: user.account, password: PASSWORD },
    });
    const token = login.body.data.token;
    await ctx.app.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await ctx.app.call('GET', '/api/user/currentUser', { token })).status).toBe(401);

    expect((await ctx.app.call('GET', '/api/user/currentUser', { token: 'made-up' })).status).toBe(401);
    expect((await ctx.app.call('GET', '/api/user/currentUser')).status).toBe(401);
  });

  it('refuses the very next poll once the password is changed, though its token was checked moments before', async () => {
    const user = await registerUser(ctx.app);
    const login = await ctx.app.call('POST', '/api/auth/account', {
      body: { account: user.account, password: user.password },
    });
    const other = login.body.data.token as string;
    // A poll for an unknown generation: let in (404 from the route), the token now among the recently checked.
    const poll = (token: string) =>
      ctx.app.call('POST', '/api/generate/task/progress', { token, body: { generateId: 'no-such-generation' } });
    expect((await poll(other)).status).toBe(404);
    expect((await poll(user.token)).status).toBe(404);
    // Revoked in the database alone (nothing in the product does that): the poll is still let in, so the check
    // above really answered from the recently checked tokens.
    const control = (
      await ctx.app.call('POST', '/api/auth/account', { body: { account: user.account, password: user.password } })
    ).body.data.token as string;
    expect((await poll(control)).status).toBe(404);
    await ctx.app.db
      .updateTable('sessions')
      .set({ revoked_at: new Date().toISOString() })
      .where('token_hash', '=', sha256(control))
      .execute();
    expect((await poll(control)).status).toBe(404);

    const changed = await ctx.app.call('POST', '/api/user/update/pwd', {
      token: user.token,
      body: { oldPassword: user.password, newPassword: 'NewPass123' },
    });
    expect(changed.body.code).toBe(0);
    for (const token of [user.token, other, control]) {
      const refused = await poll(token);
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe(401);
    }
  });

  it('resets a forgotten password: reVerify → rePassword, old tokens revoked, reset token single use', async () => {
    const user = await registerUser(ctx.app);
    ctx.app.advanceClock(61_000);
    await send(user.mobile, 'reset');
    const verified = await ctx.app.call('POST', '/api/auth/reVerify', {
      body: { mobile: user.mobile, code: ctx.app.smsCode(user.mobile) },
    });
    expect(verified.body.code).toBe(0);
    const resetToken = verified.body.data.token;
    // The reset token is not a login.
    expect((await ctx.app.call('GET', '/api/user/currentUser', { token: resetToken })).status).toBe(401);

    const reset = await ctx.app.call('POST', '/api/auth/rePassword', {
      body: { token: resetToken, password: 'NewPass123' },
    });
    expect(reset.body.code).toBe(0);
    expect((await ctx.app.call('GET', '/api/user/currentUser', { token: user.token })).status).toBe(401);
    const again = await ctx.app.call('POST', '/api/auth/rePassword', {
      body: { token: resetToken, password: 'Other1234' },
    });
    expect(again.body.code).toBe(-1);

    const login = await ctx.app.call('POST', '/api/auth/account', {
      body: { account: user.account, password: 'NewPass123' },
    });
    expect(login.body.code).toBe(0);
  });

  it('sweeps expired tokens, codes and pending registrations, keeping live ones', async () => {
    const user = await registerUser(ctx.app);
    const count = async (table: 'sessions' | 'sms_codes' | 'registrations') =>
      Number(
        (await ctx.app.db.selectFrom(table).select(ctx.app.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow())
          .n,
      );
    const past = new Date(Date.now() - 1000).toISOString();
    await ctx.app.db.updateTable('sessions').set({ expires_at: past }).where('user_id', '!=', user.userId).execute();
    await ctx.app.db.updateTable('registrations').set({ expires_at: past }).execute();
    await ctx.app.services.auth.sweepExpired();
    expect(await count('registrations')).toBe(0);
    const left = await ctx.app.db.selectFrom('sessions').select('user_id').execute();
    expect(left.every((s) => s.user_id === user.userId)).toBe(true);
    expect((await ctx.app.call('GET', '/api/user/currentUser', { token: user.token })).status).toBe(200);
    ctx.app.advanceClock(10 * 60_000);
    await ctx.app.services.auth.sweepExpired();
    expect(await count('sms_codes')).toBe(0);
  });

  it('refuses a reset code for an unregistered mobile', async () => {
    const res = await send(uniqueMobile(), 'reset');
    expect(res.body).toMatchObject({ code: -1, msg: '该手机号未注册' });
  });
});

describeServer('auth: rate limits', () => {
  const ctx = useTestApp({ config: { rateLimit: { login: 3, sendCode: 2, signUp: 2 } } });

  it('answers HTTP 429 with a Chinese message once the login limit is used up', async () => {
    const attempt = () =>
      ctx.app.call('POST', '/api/auth/account', { body: { account: 'nobody_here', password: 'x1234567' } });
    for (let i = 0; i < 3; i++) expect((await attempt()).status).toBe(200);
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe(-1);
    expect(limited.body.msg).toMatch(/^操作过于频繁，请 \d+ 秒后再试$/);
    // A made-up X-Forwarded-For does not buy a fresh allowance unless TRUST_PROXY is set.
    const spoofed = await ctx.app.app.inject({
      method: 'POST',
      url: '/api/auth/account',
      headers: { 'x-forwarded-for': '203.0.113.9' },
      payload: { account: 'nobody_here', password: 'x1234567' },
    });
    expect(spoofed.statusCode).toBe(429);
  });

  it('limits code sending per address, whatever the mobile', async () => {
    expect((await ctx.app.call('POST', '/api/auth/sendCode', { body: { mobile: uniqueMobile() } })).status).toBe(200);
    expect((await ctx.app.call('POST', '/api/auth/sendCode', { body: { mobile: uniqueMobile() } })).status).toBe(200);
    const limited = await ctx.app.call('POST', '/api/auth/sendCode', { body: { mobile: uniqueMobile() } });
    expect(limited.status).toBe(429);
    expect(limited.body.msg).toMatch(/操作过于频繁/);
  });

  it('limits sign-up attempts', async () => {
    for (let i = 0; i < 2; i++) {
      await ctx.app.call('POST', '/api/auth/signUp', { body: { userId: 'none', password: PASSWORD } });
    }
    const limited = await ctx.app.call('POST', '/api/auth/signUp', { body: { userId: 'none', password: PASSWORD } });
    expect(limited.status).toBe(429);
  });
});
