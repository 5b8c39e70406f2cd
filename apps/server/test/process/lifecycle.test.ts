import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../../..');

/** The real server process: start, health, first admin, graceful SIGTERM. */
describe('server process lifecycle', () => {
  let dataDir: string;
  let server: ChildProcess;
  let output = '';
  let port = 0;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'huafang-process-'));
    server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', ADMIN_PASSWORD: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (d) => {
      output += d.toString();
    });
    server.stderr?.on('data', (d) => {
      output += d.toString();
    });
    const deadline = Date.now() + 30_000;
    while (!port) {
      if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match?.[1]) port = Number(match[1]);
      else await new Promise((r) => setTimeout(r, 100));
    }
  });

  afterAll(async () => {
    if (server.exitCode === null) server.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers health once ready, telling anonymous callers only up or down', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(await res.json()).toEqual({ code: 0, msg: 'ok', data: { status: 'ok' } });
  });

  it('prints a generated first-admin password exactly once, and it works', async () => {
    const lines = output.split('\n').filter((l) => l.includes('首个管理员已创建'));
    expect(lines).toHaveLength(1);
    const password = /密码 (\S+)（只显示这一次/.exec(lines[0] ?? '')?.[1];
    expect(password).toBeTruthy();
    const res = await fetch(`http://127.0.0.1:${port}/api/auth/account`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'admin', password }),
    });
    const login = await res.json();
    expect(login).toMatchObject({ code: 0, data: { admin: 'true' } });
    // The admin also sees the database kind: SQLite under DATA_DIR.
    const health = await fetch(`http://127.0.0.1:${port}/api/health`, {
      headers: { authorization: `Bearer ${login.data.token}` },
    });
    expect((await health.json()).data).toEqual({
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
          port,
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
        server.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(5)), 300);
      }, 200);
    });
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.json.code).toBe(0);
    expect(await exited).toBe(0);
    expect(output).toContain('收到 SIGTERM，正在停止服务');
  });
});
