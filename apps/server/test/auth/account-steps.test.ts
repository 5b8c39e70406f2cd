import { expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { PASSWORD, registerUser, uniqueMobile } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

describeServer('account steps: one-step SMS sign-up, the skipped invite, the account renamed once', () => {
  const ctx = useTestApp();

  async function codeFor(mobile: string): Promise<string> {
    const sent = await ctx.app.call('POST', '/api/auth/sendCode', { body: { mobile } });
    expect(sent.body.code).toBe(0);
    return ctx.app.smsCode(mobile);
  }
  const oneStep = (mobile: string, code: string) =>
    ctx.app.call('POST', '/api/auth/mobile/loginOrSignUp', { body: { mobile, code } });
  const me = async (token: string) => (await ctx.app.call('GET', '/api/user/currentUser', { token })).body.data;

  it('signs a new mobile up and in with its code alone; a password can be set later', async () => {
    const mobile = uniqueMobile();
    const res = await oneStep(mobile, await codeFor(mobile));
    expect(res.body).toMatchObject({
      code: 0,
      msg: '注册成功',
      data: { created: true, admin: 'false', permissions: ['user'] },
    });
    const user = await me(res.body.data.token);
    expect(user).toMatchObject({
      mobile: `${mobile.slice(0, 3)}****${mobile.slice(7)}`,
      hasPassword: false,
      invite: false,
      inviteSkipped: false,
      accountRenamable: true,
    });
    expect(user.account).toMatch(/^hf[0-9a-f]{12}$/);

    const set = await ctx.app.call('POST', '/api/user/set/password', {
      token: res.body.data.token,
      body: { password: PASSWORD },
    });
    expect(set.body).toMatchObject({ code: 0, msg: '设置成功' });
    const byPassword = await ctx.app.call('POST', '/api/auth/account', {
      body: { account: mobile, password: PASSWORD },
    });
    expect(byPassword.body).toMatchObject({ code: 0, msg: '登录成功' });
  });

  it('logs a registered mobile in as before, and keeps the spec’s /auth/mobile answering 405 for a new one', async () => {
    const user = await registerUser(ctx.app);
    ctx.app.advanceClock(61_000);
    const res = await oneStep(user.mobile, await codeFor(user.mobile));
    expect(res.body).toMatchObject({ code: 0, msg: '登录成功', data: { created: false } });
    expect((await me(res.body.data.token)).userId).toBe(user.userId);

    const fresh = uniqueMobile();
    const spec = await ctx.app.call('POST', '/api/auth/mobile', {
      body: { mobile: fresh, code: await codeFor(fresh) },
    });
    expect(spec.body.code).toBe(405);
  });

  it('refuses a wrong code and makes no account', async () => {
    const mobile = uniqueMobile();
    const code = await codeFor(mobile);
    const wrong = code === '000000' ? '111111' : '000000';
    const res = await oneStep(mobile, wrong);
    expect(res.body.code).toBe(-1);
    expect(res.body.msg).toMatch(/验证码/);
    const login = await ctx.app.call('POST', '/api/auth/account', { body: { account: mobile, password: PASSWORD } });
    expect(login.body.code).not.toBe(0);
  });

  it('makes one account of parallel sign-ups with the same code', async () => {
    const mobile = uniqueMobile();
    const code = await codeFor(mobile);
    const answers = await Promise.all(Array.from({ length: 6 }, () => oneStep(mobile, code)));
    const ok = answers.filter((res) => res.body.code === 0);
    expect(ok).toHaveLength(1);
    expect(ok[0]?.body.data.created).toBe(true);
    for (const res of answers) expect(res.status).toBeLessThan(500);
  });

  it('remembers a skipped invite on the user, so another device is not asked again', async () => {
    const user = await registerUser(ctx.app);
    expect((await me(user.token)).inviteSkipped).toBe(false);
    const skip = await ctx.app.call('POST', '/api/user/invite/skip', { token: user.token });
    expect(skip.body).toMatchObject({ code: 0, msg: '设置成功' });

    const other = await ctx.app.call('POST', '/api/auth/account', {
      body: { account: user.account, password: PASSWORD },
    });
    expect(await me(other.body.data.token)).toMatchObject({ invite: false, inviteSkipped: true });

    // Entering a code later still works.
    const redeem = await ctx.app.call('POST', '/api/user/invite/code', {
      token: user.token,
      body: { inviteCode: 'HUAFANG2026' },
    });
    expect(redeem.body.code).toBe(0);
    expect((await ctx.app.call('POST', '/api/user/invite/skip')).status).toBe(401);
  });

  it('changes the account name once: the new name logs in, a second change and a taken name are refused', async () => {
    const user = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const rename = (account: unknown, token = user.token) =>
      ctx.app.call('POST', '/api/user/update/account', { token, body: { account } });

    const bad = await rename('1abc');
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('账号');
    expect((await rename(other.account)).body).toMatchObject({ code: -1, msg: '该账号已被注册' });
    expect((await rename(user.account)).body).toMatchObject({ code: -1, msg: '新账号与当前账号相同' });

    const name = `n${user.mobile}`;
    expect((await rename(name)).body).toMatchObject({ code: 0, msg: '设置成功' });
    expect(await me(user.token)).toMatchObject({ account: name, accountRenamable: false });
    const login = await ctx.app.call('POST', '/api/auth/account', { body: { account: name, password: PASSWORD } });
    expect(login.body).toMatchObject({ code: 0, msg: '登录成功' });
    const old = await ctx.app.call('POST', '/api/auth/account', {
      body: { account: user.account, password: PASSWORD },
    });
    expect(old.body.code).not.toBe(0);

    expect((await rename(`m${user.mobile}`)).body).toMatchObject({ code: -1, msg: '账号只能修改一次，你已经修改过了' });
    expect((await me(user.token)).account).toBe(name);
  });

  it('lets exactly one of parallel renames of one user through', async () => {
    const user = await registerUser(ctx.app);
    const names = Array.from({ length: 8 }, (_, i) => `p${i}x${user.mobile}`);
    const answers = await Promise.all(
      names.map((account) =>
        ctx.app.call('POST', '/api/user/update/account', { token: user.token, body: { account } }),
      ),
    );
    const winners = names.filter((_, i) => answers[i]?.body.code === 0);
    expect(winners).toHaveLength(1);
    for (const res of answers) {
      if (res.body.code !== 0) expect(res.body).toMatchObject({ code: -1, msg: '账号只能修改一次，你已经修改过了' });
    }
    expect(await me(user.token)).toMatchObject({ account: winners[0], accountRenamable: false });
  });

  it('gives a name to one of two users asking for it at once', async () => {
    const users = await Promise.all([registerUser(ctx.app), registerUser(ctx.app)]);
    const name = `race${users[0].mobile}`;
    const answers = await Promise.all(
      users.map((user) =>
        ctx.app.call('POST', '/api/user/update/account', { token: user.token, body: { account: name } }),
      ),
    );
    expect(answers.map((res) => res.body.code).sort()).toEqual([-1, 0]);
    expect(answers.find((res) => res.body.code === -1)?.body.msg).toBe('该账号已被注册');
    const loser = users[answers.findIndex((res) => res.body.code === -1)];
    // The refused user keeps their one change.
    expect(await me(loser?.token ?? '')).toMatchObject({ accountRenamable: true });
  });
});
