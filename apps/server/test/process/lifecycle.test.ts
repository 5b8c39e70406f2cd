import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerProcess } from '../helpers/server-process.js';

/** The real server process: start, health, first admin, graceful SIGTERM. */
describe('server process lifecycle', () => {
  let dataDir: string;
  let server: ServerProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'huafang-process-'));
    server = await ServerProcess.start(dataDir, { ADMIN_PASSWORD: '' });
  });

  afterAll(async () => {
    await server.stop('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers health once ready, telling anonymous callers only up or down', async () => {
    expect((await server.call('GET', '/api/health')).body).toEqual({ code: 0, msg: 'ok', data: { status: 'ok' } });
  });

  it('prints a generated first-admin password exactly once, and it works', async () => {
    const lines = server.output.split('\n').filter((l) => l.includes('首个管理员已创建'));
    expect(lines).toHaveLength(1);
    const password = /密码 (\S+)（只显示这一次/.exec(lines[0] ?? '')?.[1];
    expect(password).toBeTruthy();
    const login = (await server.call('POST', '/api/auth/account', { body: { account: 'admin', password } })).body;
    expect(login).toMatchObject({ code: 0, data: { admin: 'true' } });
    // The admin also sees the database kind: SQLite under DATA_DIR.
    const health = await server.call('GET', '/api/health', { token: login.data.token });
    expect(health.body.data).toEqual({
      status: 'ok',
      db: 'sqlite',
      checks: { database: 'ok', storage: 'ok' },
    });
  });

  it('finishes an in-flight request on SIGTERM, then exits 0', async () => {
    const body = JSON.stringify({ mobile: '13912345678' });
    const answer = new Promise<{ status: number; json: { code: number } }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: server.port,
          path: '/api/auth/sendCode',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => {
            text += d;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      // Half the body now, SIGTERM, then the rest: the request is in flight when the signal lands.
      req.write(body.slice(0, 5));
      setTimeout(() => {
        server.signal('SIGTERM');
        setTimeout(() => req.end(body.slice(5)), 300);
      }, 200);
    });
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.json.code).toBe(0);
    expect(await server.exited).toBe(0);
    expect(server.output).toContain('收到 SIGTERM，正在停止服务');
  });
});
