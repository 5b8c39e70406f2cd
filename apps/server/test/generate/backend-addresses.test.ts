import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newId, nowIso } from '../../src/platform/ids.js';
import { describeServer } from '../helpers/suite.js';
import { createTestApp, loginAdmin, type TestApp } from '../helpers/test-app.js';

type Listening = { server: Server; url: string; hits: string[] };

/** A tiny HTTP server that records every request and answers each one with `answer`. */
async function listen(answer: (path: string) => { status: number; headers?: Record<string, string> }) {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const { status, headers } = answer(req.url ?? '/');
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end('{}');
  });
  // Upgrade requests (the ComfyUI websocket) are recorded too.
  server.on('upgrade', (req, socket) => {
    hits.push(req.url ?? '');
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, hits } satisfies Listening;
}

describeServer('backends: redirects are not followed and addresses can be restricted', () => {
  let app: TestApp;
  let restricted: TestApp;
  let admin: string;
  let restrictedAdmin: string;
  let elsewhere: Listening;
  let redirecting: Listening;
  beforeAll(async () => {
    elsewhere = await listen(() => ({ status: 200 }));
    // Another host as far as the URL goes: localhost instead of 127.0.0.1.
    const target = elsewhere.url.replace('127.0.0.1', 'localhost');
    redirecting = await listen((path) => ({ status: 302, headers: { location: `${target}${path}` } }));
    app = await createTestApp();
    admin = await loginAdmin(app);
    restricted = await createTestApp({ backendAllowedHosts: ['10.0.0.0/8', 'gpu.example.com', '*.gpu.lan'] });
    restrictedAdmin = await loginAdmin(restricted);
  });
  afterAll(async () => {
    await app.close();
    await restricted.close();
    for (const { server } of [elsewhere, redirecting]) await new Promise((resolve) => server.close(resolve));
  });

  it('marks a backend that redirects elsewhere down, and the other host receives nothing', async () => {
    for (const kind of ['sdwebui', 'comfyui']) {
      const res = await app.call('POST', '/api/admin/backends', {
        token: admin,
        body: { name: `跳转-${kind}`, kind, baseUrl: redirecting.url, models: [] },
      });
      expect(res.body.code, res.body.msg).toBe(0);
      expect(res.body.data.healthy).toBe(false);
      expect(res.body.data.healthMessage).toContain('重定向');
      const checked = await app.call('POST', `/api/admin/backends/${res.body.data.id}/check`, { token: admin });
      expect(checked.body.data).toMatchObject({ healthy: false });
      expect(checked.body.data.healthMessage).toContain('重定向');
    }
    expect(redirecting.hits.length).toBeGreaterThan(0);
    expect(elsewhere.hits).toEqual([]);
  });

  it('refuses backend addresses outside BACKEND_ALLOWED_HOSTS on create and update', async () => {
    for (const baseUrl of [
      'http://127.0.0.1:7860',
      'http://169.254.169.254/latest',
      'http://gpu.example.com.evil.net:7860',
      'http://gpu.lan:7860',
      'http://[::1]:7860',
    ]) {
      const res = await restricted.call('POST', '/api/admin/backends', {
        token: restrictedAdmin,
        body: { name: '不允许', kind: 'sdwebui', baseUrl, models: [], enabled: false },
      });
      expect(res.body, baseUrl).toEqual({
        code: -1,
        msg: '后端地址不在允许的范围内（BACKEND_ALLOWED_HOSTS），请联系运维人员',
        data: null,
      });
    }
    const ids: string[] = [];
    for (const baseUrl of ['http://10.1.2.3:7860', 'https://GPU.example.com', 'http://a.gpu.lan:8188']) {
      const res = await restricted.call('POST', '/api/admin/backends', {
        token: restrictedAdmin,
        body: { name: '允许', kind: 'comfyui', baseUrl, models: [], enabled: false },
      });
      expect(res.body.code, `${baseUrl}: ${res.body.msg}`).toBe(0);
      ids.push(res.body.data.id);
    }
    const moved = await restricted.call('PUT', `/api/admin/backends/${ids[0]}`, {
      token: restrictedAdmin,
      body: { name: '改地址', kind: 'sdwebui', baseUrl: 'http://192.168.1.5:7860', models: [], enabled: false },
    });
    expect(moved.body.msg).toBe('后端地址不在允许的范围内（BACKEND_ALLOWED_HOSTS），请联系运维人员');
  });

  it('does not contact a stored backend whose address the rules no longer allow', async () => {
    const now = nowIso();
    await restricted.db
      .insertInto('backends')
      .values({
        id: newId(),
        name: '旧登记',
        kind: 'sdwebui',
        base_url: elsewhere.url,
        username: null,
        secret: null,
        models: '[]',
        enabled: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    restricted = await restricted.restart();
    restrictedAdmin = await loginAdmin(restricted);
    const list = (await restricted.call('GET', '/api/admin/backends', { token: restrictedAdmin })).body.data as any[];
    const stored = list.find((backend) => backend.name === '旧登记');
    expect(stored).toMatchObject({ healthy: false, healthMessage: '地址不在允许的范围内（BACKEND_ALLOWED_HOSTS）' });
    const checked = await restricted.call('POST', `/api/admin/backends/${stored.id}/check`, { token: restrictedAdmin });
    expect(checked.body.data).toMatchObject({ healthy: false });
    expect(elsewhere.hits).toEqual([]);
  });
});
