import { expect, it } from 'vitest';
import { hashPassword } from '../../src/platform/auth/password.js';
import { describeServer } from '../helpers/suite.js';
import { PASSWORD, registerUser, uniqueMobile } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

describeServer('user: profile, invite, password, mobile', () => {
  const ctx = useTestApp({ admin: true });

  async function newInviteCode(codeType = '01', maxUses = 5): Promise<string> {
    const res = await ctx.app.call('POST', '/api/admin/invite/codes', {
      token: ctx.admin,
      body: { codeType, maxUses },
    });
    expect(res.body.code).toBe(0);
    return res.body.data.code;
  }

  it('shows the current user with a masked mobile, credits and no invite yet', async () => {
    const user = await registerUser(ctx.app, { nickname: '小画家' });
    const me = await ctx.app.call('GET', '/api/user/currentUser', { token: user.token });
    expect(me.body).toMatchObject({
      code: 0,
      data: {
        userId: user.userId,
        nickname: '小画家',
        mobile: `${user.mobile.slice(0, 3)}****${user.mobile.slice(7)}`,
        hasPassword: true,
        invite: false,
        codeType: null,
        credits: ctx.app.config.newUserCredits,
        admin: 'false',
        avatar: null,
      },
    });
    expect(JSON.stringify(me.body)).not.toContain('password_hash');
    const status = await ctx.app.call('GET', '/api/user/status', { token: user.token });
    expect(status.body.data).toEqual({ invite: false, codeType: null });
  });

  it('accepts an invite code with the profile, and again through invite/code without spending a second use', async () => {
    const code = await newInviteCode('01', 1);
    const user = await registerUser(ctx.app, { inviteCode: code });
    expect((await ctx.app.call('GET', '/api/user/status', { token: user.token })).body.data).toEqual({
      invite: true,
      codeType: '01',
    });
    const again = await ctx.app.call('POST', '/api/user/invite/code', {
      token: user.token,
      body: { inviteCode: code },
    });
    expect(again.body).toMatchObject({ code: 0, data: { invite: true, codeType: '01' } });
    const list = await ctx.app.call('GET', '/api/admin/invite/codes?current=1&pageSize=50', { token: ctx.admin });
    expect(list.body.data.list.find((c: { code: string }) => c.code === code)).toMatchObject({
      usedCount: 1,
      maxUses: 1,
    });
  });

  it('refuses an unknown or used-up invite code with 邀请码无效, saving nothing of the profile', async () => {
    const code = await newInviteCode('02', 1);
    await registerUser(ctx.app, { inviteCode: code });
    const user = await registerUser(ctx.app, { nickname: '原昵称' });
    const usedUp = await ctx.app.call('POST', '/api/user/perfectInfo', {
      token: user.token,
      body: { nickname: '新昵称', inviteCode: code },
    });
    expect(usedUp.body).toMatchObject({ code: -1, msg: '邀请码无效' });
    const me = await ctx.app.call('GET', '/api/user/currentUser', { token: user.token });
    expect(me.body.data).toMatchObject({ nickname: '原昵称', invite: false });
    const unknown = await ctx.app.call('POST', '/api/user/invite/code', {
      token: user.token,
      body: { inviteCode: 'NOPE1234' },
    });
    expect(unknown.body).toMatchObject({ code: -1, msg: '邀请码无效' });
  });

  it('validates nicknames: length and control characters', async () => {
    const user = await registerUser(ctx.app);
    const long = await ctx.app.call('POST', '/api/user/update/nickname', {
      token: user.token,
      body: { nickname: '长'.repeat(17) },
    });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: -1, msg: '昵称长度不能超过 16 个字符' });
    const control = await ctx.app.call('POST', '/api/user/update/nickname', {
      token: user.token,
      body: { nickname: 'ab\u0007c' },
    });
    expect(control.body).toMatchObject({ code: -1, msg: '昵称不能包含控制字符或不可见字符' });
    const short = await ctx.app.call('POST', '/api/user/update/nickname', {
      token: user.token,
      body: { nickname: '一' },
    });
    expect(short.body.msg).toBe('昵称长度至少 2 个字符');
    const good = await ctx.app.call('POST', '/api/user/update/nickname', {
      token: user.token,
      body: { nickname: '  新名字 ' },
    });
    expect(good.body).toMatchObject({ code: 0, msg: '设置成功' });
    expect((await ctx.app.call('GET', '/api/user/currentUser', { token: user.token })).body.data.nickname).toBe(
      '新名字',
    );
  });

  it('changes the password: wrong old password refused; success revokes every token', async () => {
    const user = await registerUser(ctx.app);
    const second = (
      await ctx.app.call('POST', '/api/auth/account', { body: { account: user.account, password: PASSWORD } })
    ).body.data.token;
    const wrongOld = await ctx.app.call('POST', '/api/user/update/pwd', {
      token: user.token,
      body: { oldPassword: 'Nope12345', newPassword: 'Changed123' },
    });
    expect(wrongOld.body).toMatchObject({ code: -1, msg: '原密码错误' });
    const weak = await ctx.app.call('POST', '/api/user/update/pwd', {
      token: user.token,
      body: { oldPassword: PASSWORD, newPassword: 'weak' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.msg).toBe('新密码长度至少 8 位');

    const changed = await ctx.app.call('POST', '/api/user/update/pwd', {
      token: user.token,
      body: { oldPassword: PASSWORD, newPassword: 'Changed123' },
    });
    expect(changed.body.code).toBe(0);
    expect((await ctx.app.call('GET', '/api/user/currentUser', { token: user.token })).status).toBe(401);
    expect((await ctx.app.call('GET', '/api/user/currentUser', { token: second })).status).toBe(401);
    const old = await ctx.app.call('POST', '/api/auth/account', {
      body: { account: user.account, password: PASSWORD },
    });
    expect(old.body.msg).toBe('账号或密码错误');
    const fresh = await ctx.app.call('POST', '/api/auth/account', {
      body: { account: user.account, password: 'Changed123' },
    });
    expect(fresh.body.code).toBe(0);
  });

  it('sets a first password only for users without one', async () => {
    const user = await registerUser(ctx.app);
    await ctx.app.db.updateTable('users').set({ password_hash: null }).where('id', '=', user.userId).execute();
    expect((await ctx.app.call('GET', '/api/user/currentUser', { token: user.token })).body.data.hasPassword).toBe(
      false,
    );
    const set = await ctx.app.call('POST', '/api/user/set/password', {
      token: user.token,
      body: { password: 'First1234' },
    });
    expect(set.body).toMatchObject({ code: 0, msg: '设置成功' });
    const twice = await ctx.app.call('POST', '/api/user/set/password', {
      token: user.token,
      body: { password: 'Second123' },
    });
    expect(twice.body).toMatchObject({ code: -1, msg: '你已设置过密码，请使用修改密码' });
  });

  it('unbinds and binds a mobile with codes of the right scene', async () => {
    const user = await registerUser(ctx.app);
    ctx.app.advanceClock(61_000);
    await ctx.app.call('POST', '/api/auth/sendCode', { body: { mobile: user.mobile, scene: 'unbind' } });
    const unbind = await ctx.app.call('POST', '/api/user/unbind/mobile', {
      token: user.token,
      body: { code: ctx.app.smsCode(user.mobile) },
    });
    expect(unbind.body.code).toBe(0);
    expect((await ctx.app.call('GET', '/api/user/currentUser', { token: user.token })).body.data.mobile).toBeNull();

    const fresh = uniqueMobile();
    await ctx.app.call('POST', '/api/auth/sendCode', { body: { mobile: fresh, scene: 'login' } });
    const wrongScene = await ctx.app.call('POST', '/api/user/bind/mobile', {
      token: user.token,
      body: { mobile: fresh, code: ctx.app.smsCode(fresh) },
    });
    expect(wrongScene.body).toMatchObject({ code: -1, msg: '验证码无效，请重新获取' });

    ctx.app.advanceClock(61_000);
    await ctx.app.call('POST', '/api/auth/sendCode', { body: { mobile: fresh, scene: 'bind' } });
    const bind = await ctx.app.call('POST', '/api/user/bind/mobile', {
      token: user.token,
      body: { mobile: fresh, code: ctx.app.smsCode(fresh) },
    });
    expect(bind.body).toMatchObject({ code: 0, msg: '绑定成功' });
    expect((await ctx.app.call('GET', '/api/user/currentUser', { token: user.token })).body.data.mobile).toBe(
      `${fresh.slice(0, 3)}****${fresh.slice(7)}`,
    );
  });

  it('refuses binding a mobile that another account uses', async () => {
    const owner = await registerUser(ctx.app);
    const res = await ctx.app.call('POST', '/api/auth/sendCode', { body: { mobile: owner.mobile, scene: 'bind' } });
    expect(res.body).toMatchObject({ code: -1, msg: '该手机号已被其他账号绑定' });
  });

  it('refuses unbinding for a user without a password', async () => {
    const user = await registerUser(ctx.app);
    await ctx.app.db.updateTable('users').set({ password_hash: null }).where('id', '=', user.userId).execute();
    ctx.app.advanceClock(61_000);
    await ctx.app.call('POST', '/api/auth/sendCode', { body: { mobile: user.mobile, scene: 'unbind' } });
    const res = await ctx.app.call('POST', '/api/user/unbind/mobile', {
      token: user.token,
      body: { code: ctx.app.smsCode(user.mobile) },
    });
    expect(res.body).toMatchObject({ code: -1, msg: '请先设置密码，再解绑手机号' });
    await ctx.app.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(PASSWORD) })
      .where('id', '=', user.userId)
      .execute();
  });

  it('keeps admin routes to admins: 403 for users, 401 for strangers', async () => {
    const user = await registerUser(ctx.app);
    const asUser = await ctx.app.call('GET', '/api/admin/invite/codes', { token: user.token });
    expect(asUser.status).toBe(403);
    expect(asUser.body).toMatchObject({ code: -1, msg: '没有权限执行此操作' });
    expect((await ctx.app.call('GET', '/api/admin/invite/codes')).status).toBe(401);
    expect((await ctx.app.call('GET', '/api/admin/help', { token: user.token })).status).toBe(403);
    const put = await ctx.app.call('PUT', '/api/admin/agreement/privacy', {
      token: user.token,
      body: { title: 'x', content: 'y' },
    });
    expect(put.status).toBe(403);
  });

  it('creates invite codes as admin with validation, and pages them', async () => {
    const bad = await ctx.app.call('POST', '/api/admin/invite/codes', {
      token: ctx.admin,
      body: { codeType: '1', maxUses: 0 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('邀请码类型为两位数字，如 01');
    const named = await ctx.app.call('POST', '/api/admin/invite/codes', {
      token: ctx.admin,
      body: { code: 'SPRING2026', codeType: '02', maxUses: 3, remark: '春季活动' },
    });
    expect(named.body.data).toMatchObject({ code: 'SPRING2026', usedCount: 0, remark: '春季活动' });
    const dup = await ctx.app.call('POST', '/api/admin/invite/codes', {
      token: ctx.admin,
      body: { code: 'spring2026', codeType: '02', maxUses: 3 },
    });
    expect(dup.body).toMatchObject({ code: -1, msg: '邀请码已存在，请换一个' });
    const page = await ctx.app.call('GET', '/api/admin/invite/codes?current=1&pageSize=2', { token: ctx.admin });
    expect(page.body.data).toMatchObject({ current: 1, pageSize: 2 });
    expect(page.body.data.list).toHaveLength(2);
    expect(page.body.data.total).toBeGreaterThanOrEqual(3);
  });
});
