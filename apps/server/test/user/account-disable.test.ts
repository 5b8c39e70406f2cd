import { expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { PASSWORD, registerUser, SCALE_OUT } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

describeServer('user: 停用与启用账号', () => {
  const ctx = useTestApp({ admin: true });

  const setDisabled = (userId: string, disabled: unknown, token = ctx.admin) =>
    ctx.app.call('POST', '/api/admin/users/disabled', { token, body: { userId, disabled } });
  const logIn = (account: string) =>
    ctx.app.call('POST', '/api/auth/account', { body: { account, password: PASSWORD } });

  it('signs a stopped user out at once, in every API process, and refuses their login until 启用', async () => {
    const user = await registerUser(ctx.app);
    // Scale-out: another API process of the deployment, which has the token in its cache.
    const other = SCALE_OUT ? await ctx.app.sibling() : ctx.app;
    try {
      expect((await other.call('GET', '/api/user/currentUser', { token: user.token })).status).toBe(200);

      const stop = await setDisabled(user.userId, true);
      expect(stop.body).toEqual({ code: 0, msg: '设置成功', data: { userId: user.userId, disabled: true } });
      for (const api of new Set([ctx.app, other])) {
        const me = await api.call('GET', '/api/user/currentUser', { token: user.token });
        expect(me.status).toBe(401);
        // Told why, not sent to the login dialog as if the session had merely expired.
        expect(me.body).toMatchObject({ code: 401, msg: '账号已被禁用，请联系客服' });
      }
      expect((await logIn(user.account)).body).toMatchObject({ code: -1, msg: '账号已被禁用，请联系客服' });
      const listed = await ctx.app.call('GET', `/api/admin/users?keyword=${user.account}`, { token: ctx.admin });
      expect(listed.body.data.list).toEqual([expect.objectContaining({ userId: user.userId, disabled: true })]);

      expect((await setDisabled(user.userId, false)).body).toMatchObject({ code: 0, msg: '设置成功' });
      const back = await logIn(user.account);
      expect(back.body).toMatchObject({ code: 0, msg: '登录成功' });
      expect((await other.call('GET', '/api/user/currentUser', { token: back.body.data.token })).status).toBe(200);
    } finally {
      if (other !== ctx.app) await other.close();
    }
  });

  it('keeps the admin able to sign in: an admin cannot stop their own account', async () => {
    const me = await ctx.app.call('GET', '/api/user/currentUser', { token: ctx.admin });
    const res = await setDisabled(me.body.data.userId, true);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: -1, msg: '不能停用自己的账号' });
    expect((await ctx.app.call('GET', '/api/user/currentUser', { token: ctx.admin })).status).toBe(200);
  });

  it('is for admins only, checks its input and names an unknown user', async () => {
    const user = await registerUser(ctx.app);
    const asUser = await setDisabled(user.userId, true, user.token);
    expect(asUser.body).toMatchObject({ code: -1, msg: '没有权限执行此操作' });
    expect((await ctx.app.call('GET', '/api/user/currentUser', { token: user.token })).status).toBe(200);

    const bad = await setDisabled('', 'yes');
    expect(bad.body.code).toBe(-1);
    expect(bad.body.msg).toMatch(/请选择用户|请选择停用或启用/);
    expect(JSON.stringify(bad.body)).not.toMatch(/at .*\.ts|ZodError/);

    const unknown = await setDisabled('no-such-user', true);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 404, msg: '用户不存在' });
  });
});
