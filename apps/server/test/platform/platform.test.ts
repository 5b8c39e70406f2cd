import { beforeAll, expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { loginAdmin, registerUser, SCALE_OUT, TEST_DB } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

describeServer('platform: health, envelope, errors, docs', () => {
  const ctx = useTestApp();
  beforeAll(async () => {
    ctx.app.app.get('/api/test/boom', async () => {
      throw new Error('secret internal detail');
    });
  });

  it('reports health: up or down to anyone, the database kind and checks to an admin', async () => {
    const res = await ctx.app.call('GET', '/api/health');
    expect(res.body).toEqual({ code: 0, msg: 'ok', data: { status: 'ok' } });
    const forAdmin = await ctx.app.call('GET', '/api/health', { token: await loginAdmin(ctx.app) });
    expect(forAdmin.body.data).toEqual({
      status: 'ok',
      db: TEST_DB,
      checks: { database: 'ok', storage: 'ok', ...(SCALE_OUT ? { redis: 'ok' } : {}) },
      // Scale-out: the in-process worker is BullMQ's one worker; nothing waits between tests.
      ...(SCALE_OUT ? { queue: { waiting: 0, active: 0, delayed: 0, failed: 0, workers: 1 } } : {}),
    });
  });

  it('answers an unknown /api route with 404 接口不存在', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['POST', '/api/user/nothing'],
      ['DELETE', '/api'],
    ]) {
      const res = await ctx.app.call(method as string, url as string);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 404, msg: '接口不存在', data: null });
    }
  });

  it('turns an unexpected error into 500 服务器错误 with a request id; the stack stays in the log', async () => {
    const res = await ctx.app.app.inject({ method: 'GET', url: '/api/test/boom' });
    const body = res.json();
    expect(res.statusCode).toBe(500);
    expect(body).toMatchObject({ code: 500, msg: '服务器错误', data: { requestId: expect.any(String) } });
    expect(res.headers['x-request-id']).toBe(body.data.requestId);
    expect(res.body).not.toContain('secret internal detail');
    expect(res.body).not.toContain('at ');
    const logged = ctx.app.logLines.find(
      (l) => l.includes(body.data.requestId) && l.includes('secret internal detail'),
    );
    expect(logged).toContain('"stack"');
  });

  it('answers malformed JSON and a missing body with -1 and a Chinese message', async () => {
    const broken = await ctx.app.app.inject({
      method: 'POST',
      url: '/api/auth/account',
      payload: '{"account": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ code: -1 });
    expect(broken.json().msg).toMatch(/[\u4e00-\u9fa5]/);

    const empty = await ctx.app.call('POST', '/api/auth/account');
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe(-1);
    expect(empty.body.msg).toMatch(/[\u4e00-\u9fa5]/);
  });

  it('refuses a NUL character anywhere in the request with -1 on both databases, and nothing changes', async () => {
    const token = await loginAdmin(ctx.app);
    const user = await registerUser(ctx.app);
    const before = (await ctx.app.call('GET', '/api/user/currentUser', { token: user.token })).body.data;
    for (const call of [
      ctx.app.call('POST', '/api/admin/users/credits', { token, body: { userId: `${user.userId}\u0000`, amount: 5 } }),
      ctx.app.call('POST', '/api/auth/account', { body: { account: 'ad\u0000min', password: 'Admin12345' } }),
      ctx.app.call('GET', `/api/admin/help?pageSize=${encodeURIComponent('1\u0000')}`, { token }),
    ]) {
      const res = await call;
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: -1, msg: '请求内容包含无效字符（空字符），请删除后重试', data: null });
    }
    expect((await ctx.app.call('GET', '/api/user/currentUser', { token: user.token })).body.data).toEqual(before);
  });

  it('refuses JSON nested thousands of levels deep with 400 on a user and an admin route, and nothing changes', async () => {
    const token = await loginAdmin(ctx.app);
    const user = await registerUser(ctx.app);
    const before = (await ctx.app.call('GET', '/api/user/currentUser', { token: user.token })).body.data;
    const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    for (const [url, auth, body] of [
      ['/api/user/update/nickname', user.token, `{"nickname": ${deep(5_000)}}`],
      ['/api/admin/users/credits', token, `{"userId": "${user.userId}", "amount": 5, "note": ${deep(5_000)}}`],
      ['/api/auth/account', undefined, `{"account": ${deep(65)}, "password": "x"}`],
    ] as const) {
      const res = await ctx.app.app.inject({
        method: 'POST',
        url,
        payload: body,
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ code: -1, msg: '请求内容的嵌套层级过深（最多 64 层）', data: null });
    }
    expect((await ctx.app.call('GET', '/api/user/currentUser', { token: user.token })).body.data).toEqual(before);
    // Within the limit the body reaches validation as before; prototype poisoning is still refused.
    const shallow = await ctx.app.app.inject({
      method: 'POST',
      url: '/api/user/update/nickname',
      payload: `{"nickname": ${deep(63)}}`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
    });
    expect(shallow.statusCode).toBe(400);
    expect(shallow.json().msg).toBe('请输入昵称');
    const poisoned = await ctx.app.app.inject({
      method: 'POST',
      url: '/api/user/update/nickname',
      payload: '{"nickname": "新名字", "__proto__": {"isAdmin": true}}',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
    });
    expect(poisoned.statusCode).toBe(400);
    const renamed = await ctx.app.call('POST', '/api/user/update/nickname', {
      token: user.token,
      body: { nickname: '新名字' },
    });
    expect(renamed.body.code).toBe(0);
  });

  it('names the field in validation messages, for zod defaults too', async () => {
    const res = await ctx.app.call('POST', '/api/auth/account', { body: { account: 12, password: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(-1);
    expect(res.body.msg).toBe('请输入账号');
    const admin = await ctx.app.call('POST', '/api/auth/account', {
      body: { account: 'admin', password: 'Admin12345' },
    });
    const page = await ctx.app.call('GET', '/api/admin/help?pageSize=abc', { token: admin.body.data.token });
    expect(page.status).toBe(400);
    expect(page.body.msg).toBe('每页条数：应为数字，实际为非数字');
    // zod's type names are Chinese too: no English word reaches the user.
    const backend = await ctx.app.call('POST', '/api/admin/backends', {
      token: admin.body.data.token,
      body: { name: '显卡一号', kind: 'sdwebui', baseUrl: 'http://127.0.0.1:9', enabled: 'yes' },
    });
    expect(backend.status).toBe(400);
    expect(backend.body.msg).toBe('启用：应为布尔值，实际为字符串');
  });

  it('serves the OpenAPI document and its UI', async () => {
    const json = await ctx.app.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = json.json();
    expect(doc.info.title).toBe('画坊 API');
    for (const path of [
      '/api/auth/sendCode',
      '/api/auth/signUp',
      '/api/user/currentUser',
      '/api/files/upload',
      '/api/help',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    const ui = await ctx.app.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });

  it('serves the agreements in Chinese and lets admins edit them', async () => {
    for (const type of ['privacy', 'service', 'questionnaire']) {
      const res = await ctx.app.call('GET', `/api/app/configs/agreement/${type}`);
      expect(res.body.code).toBe(0);
      expect(res.body.data.title).toMatch(/画坊/);
      expect(res.body.data.content.length).toBeGreaterThan(100);
    }
    const unknown = await ctx.app.call('GET', '/api/app/configs/agreement/cookies');
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toContain('协议类型不正确');

    const admin = await ctx.app.call('POST', '/api/auth/account', {
      body: { account: 'admin', password: 'Admin12345' },
    });
    const put = await ctx.app.call('PUT', '/api/admin/agreement/service', {
      token: admin.body.data.token,
      body: { title: '新服务协议', content: '第一条：友善创作。' },
    });
    expect(put.body).toMatchObject({ code: 0, msg: '设置成功' });
    expect((await ctx.app.call('GET', '/api/app/configs/agreement/service')).body.data).toEqual({
      title: '新服务协议',
      content: '第一条：友善创作。',
    });
  });

  it('takes help requests from users and lists them for admins', async () => {
    const types = await ctx.app.call('GET', '/api/help/type');
    expect(types.body.data.map((t: { name: string }) => t.name)).toContain('账号与登录');
    const user = await registerUser(ctx.app, { nickname: '求助者' });
    const typeId = types.body.data[0].id;

    const tooShort = await ctx.app.call('POST', '/api/help', { token: user.token, body: { typeId, content: '短' } });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.msg).toBe('问题描述至少 5 个字');
    const badType = await ctx.app.call('POST', '/api/help', {
      token: user.token,
      body: { typeId: 'nope', content: '生成一直在排队怎么办' },
    });
    expect(badType.body).toMatchObject({ code: -1, msg: '问题类型不存在，请重新选择' });
    expect((await ctx.app.call('POST', '/api/help', { body: { typeId, content: '没有登录的反馈' } })).status).toBe(401);

    const sent = await ctx.app.call('POST', '/api/help', {
      token: user.token,
      body: { typeId, content: '生成一直在排队怎么办', contact: 'wx: huafang' },
    });
    expect(sent.body).toMatchObject({ code: 0, msg: '提交成功，我们会尽快响应' });

    const admin = await ctx.app.call('POST', '/api/auth/account', {
      body: { account: 'admin', password: 'Admin12345' },
    });
    const list = await ctx.app.call('GET', '/api/admin/help?current=1&pageSize=10', { token: admin.body.data.token });
    expect(list.body.data.list[0]).toMatchObject({
      content: '生成一直在排队怎么办',
      contact: 'wx: huafang',
      userName: '求助者',
      typeName: types.body.data[0].name,
    });
  });

  it('seeds the first admin and the demo content only once across restarts', async () => {
    const { buildApp } = await import('../../src/app.js');
    const again = await buildApp(ctx.app.config, { logStream: new (await import('node:stream')).PassThrough() });
    await again.app.ready();
    const admins = await again.db.selectFrom('users').select('id').where('is_admin', '=', 1).execute();
    expect(admins).toHaveLength(1);
    const types = await again.db.selectFrom('help_types').select('id').execute();
    expect(types).toHaveLength(5);
    await again.app.close();
  });
});
