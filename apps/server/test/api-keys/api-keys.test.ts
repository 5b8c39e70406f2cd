import { API_KEY_MAX_PER_USER } from '@huafang/contracts';
import { expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { loginAdmin, registerUser, SCALE_OUT } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

/** Requests one key may make a minute in this file: small, so the limit is reached quickly. */
const PER_MINUTE = 6;
const SMALL = { width: 256, height: 256, steps: 4 };

describeServer('personal API keys', () => {
  const ctx = useTestApp({ config: { apiKeys: { perMinute: PER_MINUTE } }, users: ['user', 'other'] });

  const createKey = async (token: string, scopes: string[] = ['generate', 'works:read'], name = '脚本') => {
    const res = await ctx.app.call('POST', '/api/user/apiKeys', { token, body: { name, scopes } });
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data as { id: string; key: string; prefix: string };
  };
  const freeCreation = {
    templateId: null,
    promptGroup: [{ id: 'p1', groupName: '山', promptText: 'mountain', custom: '1' }],
    parameters: SMALL,
  };

  it('creates a key shown once, lists it by its prefix only, and stores only its hash', async () => {
    const created = await ctx.app.call('POST', '/api/user/apiKeys', {
      token: ctx.user.token,
      body: { name: '  夜间批量  ', scopes: ['generate'] },
    });
    expect(created.body).toMatchObject({ code: 0, data: { name: '夜间批量', scopes: ['generate'], lastUsedAt: null } });
    const { key, prefix, id } = created.body.data;
    expect(key).toMatch(/^hf_[A-Za-z0-9_-]{43}$/);
    expect(prefix).toBe(key.slice(0, 11));

    const list = await ctx.app.call('GET', '/api/user/apiKeys', { token: ctx.user.token });
    expect(list.body.data).toEqual([
      { id, name: '夜间批量', prefix, scopes: ['generate'], createdAt: expect.any(String), lastUsedAt: null },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(key);
    const row = await ctx.app.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(key.slice(11));

    // Another user sees none of it.
    expect((await ctx.app.call('GET', '/api/user/apiKeys', { token: ctx.other.token })).body.data).toEqual([]);
  });

  it('refuses bad names and scopes with a Chinese message', async () => {
    const bad = async (body: object, msg: string) => {
      const res = await ctx.app.call('POST', '/api/user/apiKeys', { token: ctx.user.token, body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: -1, msg });
    };
    await bad({ name: '', scopes: ['generate'] }, '请填写密钥名称');
    await bad({ name: 'x'.repeat(33), scopes: ['generate'] }, '密钥名称不能超过 32 个字');
    await bad({ name: '脚本', scopes: [] }, '请至少选择一项权限范围');
    await bad({ name: '脚本', scopes: ['admin'] }, '权限范围只能是 generate 或 works:read');
    await bad({ name: '脚本', scopes: ['generate', 'generate'] }, '权限范围重复');
    expect(
      (await ctx.app.call('POST', '/api/user/apiKeys', { body: { name: 'x', scopes: ['generate'] } })).status,
    ).toBe(401);
  });

  it('lets a key call the routes of its scopes as its owner, records its use, and refuses every other route', async () => {
    const { key, id } = await createKey(ctx.user.token, ['generate']);
    const predict = await ctx.app.call('POST', '/api/generate/task/predict', { token: key, body: freeCreation });
    expect(predict.body).toMatchObject({ code: 0, data: { cost: 1 } });
    const refused = { code: -1, msg: '该 API 密钥无权访问此接口', data: null };
    // Outside its scopes: works:read, the account, admin routes, logout.
    for (const [method, url] of [
      ['GET', '/api/works/profile'],
      ['GET', '/api/user/currentUser'],
      ['GET', '/api/admin/backends'],
      ['POST', '/api/auth/outLogin'],
    ] as const) {
      const res = await ctx.app.call(method, url, { token: key });
      expect(res.status, url).toBe(403);
      expect(res.body, url).toEqual(refused);
    }
    await expect
      .poll(
        async () =>
          (
            await ctx.app.db
              .selectFrom('api_keys')
              .select('last_used_at')
              .where('id', '=', id)
              .executeTakeFirstOrThrow()
          ).last_used_at,
      )
      .not.toBeNull();
  });

  it('never lets a key manage keys or webhooks, even one with every scope', async () => {
    const { key, id } = await createKey(ctx.user.token);
    for (const [method, url, body] of [
      ['GET', '/api/user/apiKeys', undefined],
      ['POST', '/api/user/apiKeys', { name: '再来一个', scopes: ['generate'] }],
      ['DELETE', `/api/user/apiKeys/${id}`, undefined],
      ['GET', '/api/user/webhooks', undefined],
      ['POST', `/api/user/webhooks/${id}/secret`, undefined],
    ] as const) {
      const res = await ctx.app.call(method, url, { token: key, body });
      expect(res.status, url).toBe(403);
      expect(res.body.msg).toBe('该 API 密钥无权访问此接口');
    }
  });

  it('reads my works with works:read, and keeps a key of an admin from admin routes', async () => {
    const { key } = await createKey(ctx.user.token, ['works:read']);
    const works = await ctx.app.call('GET', '/api/works/profile', { token: key });
    expect(works.body).toMatchObject({ code: 0, data: { total: 0 } });
    expect((await ctx.app.call('POST', '/api/generate/task/predict', { token: key, body: freeCreation })).status).toBe(
      403,
    );

    const admin = await loginAdmin(ctx.app);
    const adminKey = await createKey(admin);
    const res = await ctx.app.call('GET', '/api/admin/backends', { token: adminKey.key });
    expect(res.status).toBe(403);
  });

  it('stops a revoked key at once (401), in every API process', async () => {
    const { key, id } = await createKey(ctx.user.token);
    // Scale-out: another API process has the key in its cache when it is revoked here.
    const sibling = SCALE_OUT ? await ctx.app.sibling() : null;
    try {
      const elsewhere = sibling ?? ctx.app;
      expect((await elsewhere.call('GET', '/api/works/profile', { token: key })).body.code).toBe(0);
      // Another user cannot revoke it: not found, and it keeps working.
      const foreign = await ctx.app.call('DELETE', `/api/user/apiKeys/${id}`, { token: ctx.other.token });
      expect(foreign.status).toBe(404);
      expect(foreign.body.msg).toBe('API 密钥不存在或已删除');

      const revoked = await ctx.app.call('DELETE', `/api/user/apiKeys/${id}`, { token: ctx.user.token });
      expect(revoked.body).toEqual({ code: 0, msg: '删除成功', data: null });
      for (const target of [ctx.app, elsewhere]) {
        const res = await target.call('GET', '/api/works/profile', { token: key });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ code: 401, msg: 'API 密钥无效或已删除', data: null });
      }
      expect((await ctx.app.call('DELETE', `/api/user/apiKeys/${id}`, { token: ctx.user.token })).status).toBe(404);
      const list = await ctx.app.call('GET', '/api/user/apiKeys', { token: ctx.user.token });
      expect(list.body.data.map((k: { id: string }) => k.id)).not.toContain(id);
      // Kept for the audit trail, marked revoked.
      const row = await ctx.app.db
        .selectFrom('api_keys')
        .select('revoked_at')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.revoked_at).not.toBeNull();
    } finally {
      await sibling?.close();
    }
  });

  it("revokes every key of the user on a password change (401 in every API process), not another user's keys", async () => {
    const owner = await registerUser(ctx.app);
    const keys = [await createKey(owner.token), await createKey(owner.token, ['works:read'], '备份')];
    const bystander = await createKey(ctx.other.token);
    // Scale-out: another API process has the keys in its cache when the password changes here.
    const sibling = SCALE_OUT ? await ctx.app.sibling() : null;
    try {
      const elsewhere = sibling ?? ctx.app;
      for (const { key } of keys) {
        expect((await elsewhere.call('GET', '/api/works/profile', { token: key })).body.code).toBe(0);
      }

      const changed = await ctx.app.call('POST', '/api/user/update/pwd', {
        token: owner.token,
        body: { oldPassword: owner.password, newPassword: 'Changed123' },
      });
      expect(changed.body.code, changed.body.msg).toBe(0);

      for (const target of [ctx.app, elsewhere]) {
        for (const { key } of keys) {
          const res = await target.call('GET', '/api/works/profile', { token: key });
          expect(res.status).toBe(401);
          expect(res.body).toEqual({ code: 401, msg: 'API 密钥无效或已删除', data: null });
        }
        expect((await target.call('GET', '/api/works/profile', { token: bystander.key })).body.code).toBe(0);
      }
      const login = await ctx.app.call('POST', '/api/auth/account', {
        body: { account: owner.account, password: 'Changed123' },
      });
      const list = await ctx.app.call('GET', '/api/user/apiKeys', { token: login.body.data.token });
      expect(list.body.data).toEqual([]);
    } finally {
      await sibling?.close();
    }
  });

  it('revokes every key of the user on an SMS password reset, and none of another user', async () => {
    const owner = await registerUser(ctx.app);
    const { key } = await createKey(owner.token);
    const bystander = await createKey(ctx.other.token);
    expect((await ctx.app.call('GET', '/api/works/profile', { token: key })).body.code).toBe(0);

    ctx.app.advanceClock(61_000);
    const sent = await ctx.app.call('POST', '/api/auth/sendCode', { body: { mobile: owner.mobile, scene: 'reset' } });
    expect(sent.body.code, sent.body.msg).toBe(0);
    const verified = await ctx.app.call('POST', '/api/auth/reVerify', {
      body: { mobile: owner.mobile, code: ctx.app.smsCode(owner.mobile) },
    });
    expect(verified.body.code, verified.body.msg).toBe(0);
    const reset = await ctx.app.call('POST', '/api/auth/rePassword', {
      body: { token: verified.body.data.token, password: 'Reset1234' },
    });
    expect(reset.body.code, reset.body.msg).toBe(0);

    const res = await ctx.app.call('GET', '/api/works/profile', { token: key });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 401, msg: 'API 密钥无效或已删除', data: null });
    expect((await ctx.app.call('GET', '/api/works/profile', { token: bystander.key })).body.code).toBe(0);
  });

  it('refuses a made-up key and a key of a disabled user', async () => {
    const fake = `hf_${'A'.repeat(43)}`;
    expect((await ctx.app.call('GET', '/api/works/profile', { token: fake })).body).toMatchObject({ code: 401 });
    const victim = await registerUser(ctx.app);
    const { key } = await createKey(victim.token);
    expect((await ctx.app.call('GET', '/api/works/profile', { token: key })).body.code).toBe(0);
    const admin = await loginAdmin(ctx.app);
    const disabled = await ctx.app.call('POST', '/api/admin/users/disabled', {
      token: admin,
      body: { userId: victim.userId, disabled: true },
    });
    expect(disabled.body.code, disabled.body.msg).toBe(0);
    expect((await ctx.app.call('GET', '/api/works/profile', { token: key })).status).toBe(401);
  });

  it('limits the requests of each key per minute (429), not those of its owner or of other keys', async () => {
    const first = await createKey(ctx.user.token);
    const second = await createKey(ctx.user.token);
    for (let i = 0; i < PER_MINUTE; i++) {
      expect((await ctx.app.call('GET', '/api/works/profile', { token: first.key })).status).toBe(200);
    }
    const limited = await ctx.app.call('GET', '/api/works/profile', { token: first.key });
    expect(limited.status).toBe(429);
    expect(limited.body.msg).toMatch(/^API 密钥请求过于频繁，请 \d+ 秒后再试$/);
    expect((await ctx.app.call('GET', '/api/works/profile', { token: second.key })).status).toBe(200);
    expect((await ctx.app.call('GET', '/api/works/profile', { token: ctx.user.token })).status).toBe(200);
  });

  it(`holds the limit of ${API_KEY_MAX_PER_USER} live keys under parallel creates`, async () => {
    const owner = await registerUser(ctx.app);
    const answers = await Promise.all(
      Array.from({ length: API_KEY_MAX_PER_USER + 6 }, (_, i) =>
        ctx.app.call('POST', '/api/user/apiKeys', {
          token: owner.token,
          body: { name: `k${i}`, scopes: ['generate'] },
        }),
      ),
    );
    expect(answers.filter((a) => a.body.code === 0)).toHaveLength(API_KEY_MAX_PER_USER);
    const refused = answers.filter((a) => a.body.code !== 0);
    expect(refused).toHaveLength(6);
    for (const a of refused)
      expect(a.body.msg).toBe(`最多可以创建 ${API_KEY_MAX_PER_USER} 个 API 密钥，请先删除不用的密钥`);
    const list = await ctx.app.call('GET', '/api/user/apiKeys', { token: owner.token });
    expect(list.body.data).toHaveLength(API_KEY_MAX_PER_USER);
    // A revoked key frees its place.
    await ctx.app.call('DELETE', `/api/user/apiKeys/${list.body.data[0].id}`, { token: owner.token });
    expect(
      (
        await ctx.app.call('POST', '/api/user/apiKeys', {
          token: owner.token,
          body: { name: 'n', scopes: ['generate'] },
        })
      ).body.code,
    ).toBe(0);
  });
});
