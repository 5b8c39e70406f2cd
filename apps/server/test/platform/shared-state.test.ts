import { randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { nowIso, sha256 } from '../../src/platform/ids.js';
import { startA1111Double } from '../doubles/a1111-double.js';
import { redisUrl } from '../helpers/services.js';
import { describeScaleOut } from '../helpers/suite.js';
import { createTestApp, loginAdmin, registerUser, type TestApp, type TestUser } from '../helpers/test-app.js';

/**
 * Scale-out mode as its users see it: two API processes (A and B) on one PostgreSQL database and one Redis. What
 * happens through A is in force through B on the very next request, although B keeps checked tokens for 10 s.
 */
const describeShared = await describeScaleOut();

const NEW_PASSWORD = 'NewPassw0rd!';

describeShared('API processes sharing one database and one Redis', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await createTestApp({ redisUrl });
    b = await a.sibling();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const me = (app: TestApp, token: string) => app.call('GET', '/api/user/currentUser', { token });
  const logIn = async (app: TestApp, user: TestUser, password = user.password) => {
    const res = await app.call('POST', '/api/auth/account', { body: { account: user.account, password } });
    expect(res.body.code).toBe(0);
    return res.body.data.token as string;
  };
  /** Revokes a token in the database only, as nothing in the product does: no broadcast reaches B's cache. */
  const revokeBehindTheBroadcast = (token: string) =>
    a.db.updateTable('sessions').set({ revoked_at: nowIso() }).where('token_hash', '=', sha256(token)).execute();

  it('refuses through B a token logged out through A, on the very next request, though B had it cached', async () => {
    const user = await registerUser(a);
    const control = await logIn(a, user);
    expect((await me(b, user.token)).status).toBe(200);
    expect((await me(b, control)).status).toBe(200);
    // B really keeps checked tokens: one revoked behind the broadcast's back is still let in by B for now.
    await revokeBehindTheBroadcast(control);
    expect((await me(b, control)).status).toBe(200);

    const out = await a.call('POST', '/api/auth/outLogin', { token: user.token });
    expect(out.body.code).toBe(0);
    const refused = await me(b, user.token);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe(401);
    expect((await me(a, user.token)).status).toBe(401);
  });

  it("signs a user out of B when the password is changed through A, B's own logins included", async () => {
    const user = await registerUser(a);
    const throughB = await logIn(b, user);
    expect((await me(b, user.token)).status).toBe(200);
    expect((await me(b, throughB)).status).toBe(200);

    const changed = await a.call('POST', '/api/user/update/pwd', {
      token: user.token,
      body: { oldPassword: user.password, newPassword: NEW_PASSWORD },
    });
    expect(changed.body.code).toBe(0);
    expect((await me(b, user.token)).status).toBe(401);
    expect((await me(b, throughB)).status).toBe(401);
    // The new password works through either process.
    expect((await me(b, await logIn(b, user, NEW_PASSWORD))).status).toBe(200);
  });

  it('signs a user out of B when the password is reset by SMS through A', async () => {
    const user = await registerUser(a);
    const throughB = await logIn(b, user);
    expect((await me(b, throughB)).status).toBe(200);

    a.advanceClock(61_000); // past the resend interval of the sign-up code
    expect(
      (await a.call('POST', '/api/auth/sendCode', { body: { mobile: user.mobile, scene: 'reset' } })).body.code,
    ).toBe(0);
    const verified = await a.call('POST', '/api/auth/reVerify', {
      body: { mobile: user.mobile, code: a.smsCode(user.mobile) },
    });
    expect(verified.body.code).toBe(0);
    const reset = await a.call('POST', '/api/auth/rePassword', {
      body: { token: verified.body.data.token, password: NEW_PASSWORD },
    });
    expect(reset.body.code).toBe(0);
    expect((await me(b, throughB)).status).toBe(401);
    expect((await me(b, user.token)).status).toBe(401);
  });

  it("takes an admin's rights away in B when the admin's session is revoked through A", async () => {
    const admin = await loginAdmin(a);
    expect((await b.call('GET', '/api/admin/users', { token: admin })).status).toBe(200);
    expect((await a.call('POST', '/api/auth/outLogin', { token: admin })).body.code).toBe(0);
    const refused = await b.call('GET', '/api/admin/users', { token: admin });
    expect(refused.status).toBe(401);
    // Another admin session (this login) is untouched by that logout.
    expect((await b.call('GET', '/api/admin/users', { token: await loginAdmin(b) })).status).toBe(200);
  });

  it('drops what B cached when its subscription drops, so a revocation sent meanwhile is not missed', async () => {
    const user = await registerUser(a);
    expect((await me(b, user.token)).status).toBe(200);
    // Redis ends the subscriptions (as a restart or a network cut would); the logout may be sent while B is away.
    const admin = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await admin.connect();
      const clients = String(await admin.client('LIST')).split('\n');
      for (const line of clients) {
        const id = /(?:^|\s)id=(\d+)\s/.exec(line)?.[1];
        if (id && line.includes('name=huafang:api-subscriber')) await admin.client('KILL', 'ID', id);
      }
    } finally {
      admin.disconnect();
    }
    expect((await a.call('POST', '/api/auth/outLogin', { token: user.token })).body.code).toBe(0);
    expect((await me(b, user.token)).status).toBe(401);

    // Once subscribed again, B keeps tokens and hears revocations as before.
    const next = await logIn(a, user);
    await expect.poll(() => b.logLines.filter((l) => l.includes('broadcast subscription open')).length).toBe(2);
    expect((await me(b, next)).status).toBe(200);
    expect((await a.call('POST', '/api/auth/outLogin', { token: next })).body.code).toBe(0);
    expect((await me(b, next)).status).toBe(401);
  });

  it('translates through B with a prompt-library word an admin edited through A a moment ago', async () => {
    const admin = await loginAdmin(a);
    const user = await registerUser(a);
    const translate = async (text: string) => {
      const res = await b.call('POST', '/api/translate/zh2en', { token: user.token, body: { text } });
      expect(res.status).toBe(200);
      return res.body.data.text as string;
    };
    const tree = await a.call('GET', '/api/prompt/tree?helpUrlFlag=02', { token: admin });
    const categoryId = tree.body.data[0].children[0].id;
    // B has read (and keeps) the library before the edit.
    expect(await translate('琉璃灯，月亮')).not.toContain('glazed glass lamp');

    const created = await a.call('POST', '/api/admin/prompt/words', {
      token: admin,
      body: { categoryId, label: '琉璃灯', text: 'glazed glass lamp' },
    });
    expect(created.body.code).toBe(0);
    expect(await translate('琉璃灯，月亮')).toBe('glazed glass lamp, moon');

    await a.call('PUT', `/api/admin/prompt/words/${created.body.data.id}`, {
      token: admin,
      body: { label: '琉璃灯', text: 'liuli lamp' },
    });
    expect(await translate('琉璃灯，月亮')).toBe('liuli lamp, moon');

    await a.call('DELETE', `/api/admin/prompt/words/${created.body.data.id}`, { token: admin });
    expect(await translate('琉璃灯，月亮')).not.toContain('liuli lamp');
  });

  it('shows through B an agreement an admin saved through A a moment ago', async () => {
    const admin = await loginAdmin(a);
    const before = await b.call('GET', '/api/app/configs/agreement/service');
    const body = { title: '用户协议（修订）', content: `第 ${randomInt(1_000_000)} 版` };
    expect(body.content).not.toBe(before.body.data?.content);
    expect((await a.call('PUT', '/api/admin/agreement/service', { token: admin, body })).body.code).toBe(0);
    expect((await b.call('GET', '/api/app/configs/agreement/service')).body.data).toEqual(body);
  });

  it('lists through B a backend an admin added, renamed and removed through A a moment ago', async () => {
    const admin = await loginAdmin(a);
    const names = async () =>
      ((await b.call('GET', '/api/admin/backends', { token: admin })).body.data as { id: string; name: string }[]).map(
        (backend) => backend.name,
      );
    const name = `东区 ${randomInt(1_000_000)}`;
    expect(await names()).not.toContain(name);
    const body = { name, kind: 'sdwebui', baseUrl: 'http://127.0.0.1:9', models: [], enabled: false };
    const added = await a.call('POST', '/api/admin/backends', { token: admin, body });
    expect(added.body.code, added.body.msg).toBe(0);
    expect(await names()).toContain(name);
    const id = added.body.data.id as string;
    const renamed = await a.call('PUT', `/api/admin/backends/${id}`, {
      token: admin,
      body: { ...body, name: `${name}（新）` },
    });
    expect(renamed.body.code, renamed.body.msg).toBe(0);
    expect(await names()).toContain(`${name}（新）`);
    expect((await a.call('DELETE', `/api/admin/backends/${id}`, { token: admin })).body.code).toBe(0);
    expect((await names()).filter((listed) => listed.startsWith(name))).toEqual([]);
  });

  it('answers every backend added at once healthy, while lists through the same process run beside them', async () => {
    const admin = await loginAdmin(a);
    const double = await startA1111Double({ stepDelayMs: 20 });
    const prefix = `并行 ${randomInt(1_000_000)}`;
    try {
      const body = (i: number) => ({
        name: `${prefix}-${i}`,
        kind: 'sdwebui',
        baseUrl: double.url,
        models: [],
        enabled: true,
      });
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => [
          a.call('POST', '/api/admin/backends', { token: admin, body: body(i) }),
          a.call('GET', '/api/admin/backends', { token: admin }),
        ]).flat(),
      );
      const added = answers.filter((_, i) => i % 2 === 0).map((res) => res.body);
      expect(added.map((res) => [res.code, res.data?.healthy, res.data?.healthMessage])).toEqual(
        Array.from({ length: 12 }, () => [0, true, '正常']),
      );
      const listed = (await a.call('GET', '/api/admin/backends', { token: admin })).body.data as {
        id: string;
        name: string;
        healthy: boolean;
      }[];
      const ours = listed.filter((backend) => backend.name.startsWith(prefix));
      expect(ours.map((backend) => backend.healthy)).toEqual(Array.from({ length: 12 }, () => true));
      for (const backend of ours) await a.call('DELETE', `/api/admin/backends/${backend.id}`, { token: admin });
    } finally {
      await double.close();
    }
  });

  it('counts the login rate limit of one address over both processes together', async () => {
    const limit = 4;
    const c = await a.sibling({ rateLimit: { login: limit, sendCode: 1000, signUp: 1000 } });
    const d = await a.sibling({ rateLimit: { login: limit, sendCode: 1000, signUp: 1000 } });
    try {
      // A loopback address of this run alone: counters in Redis outlive a run by up to a minute.
      const address = `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(1, 255)}`;
      const attempt = (app: TestApp, remoteAddress: string) =>
        app.app.inject({
          method: 'POST',
          url: '/api/auth/account',
          remoteAddress,
          payload: { account: `nobody${randomInt(1_000_000)}`, password: 'Wrong12345' },
        });
      const statuses: number[] = [];
      for (let i = 0; i < limit; i++) statuses.push((await attempt(i % 2 === 0 ? c : d, address)).statusCode);
      expect(statuses).not.toContain(429);
      // Each process has seen only half the limit, and both refuse now.
      for (const app of [c, d]) {
        const over = await attempt(app, address);
        expect(over.statusCode).toBe(429);
        expect(over.json().msg).toMatch(/^操作过于频繁，请 \d+ 秒后再试$/);
      }
      // Another address has its own count.
      expect((await attempt(d, `${address.slice(0, -1)}${address.endsWith('1') ? '2' : '1'}`)).statusCode).not.toBe(
        429,
      );
    } finally {
      await d.close();
      await c.close();
    }
  });

  it('keeps serving when Redis cannot be reached: no 500s, limits skipped, no token kept', async () => {
    // Port 1 of this machine: nothing listens, every connection is refused.
    const e = await a.sibling({ redisUrl: 'redis://127.0.0.1:1', rateLimit: { login: 1, sendCode: 1, signUp: 1 } });
    try {
      expect(e.logLines.some((l) => l.includes('Redis not reachable at start'))).toBe(true);
      const user = await registerUser(a);
      // Over a limit of 1 a minute, yet answered: the limit is skipped while Redis is away.
      for (let i = 0; i < 3; i++) {
        const res = await e.call('POST', '/api/auth/account', {
          body: { account: user.account, password: user.password },
        });
        expect(res.status).toBe(200);
        expect(res.body.code).toBe(0);
      }
      // Without the broadcast E keeps no token: a revocation it could not hear of is seen at once.
      expect((await me(e, user.token)).status).toBe(200);
      await revokeBehindTheBroadcast(user.token);
      expect((await me(e, user.token)).status).toBe(401);
      // Its own logout works, and the failed broadcast is logged.
      const token = await logIn(e, user);
      expect((await e.call('POST', '/api/auth/outLogin', { token })).body.code).toBe(0);
      expect((await me(e, token)).status).toBe(401);
      expect(e.logLines.some((l) => l.includes('broadcast not sent'))).toBe(true);
    } finally {
      await e.close();
    }
  });
});
