import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import { readWhile, terminateConnections } from '../helpers/connection-killer.js';
import { postgresAdminUrl, postgresReachable, requireServices } from '../helpers/services.js';

const root = path.resolve(import.meta.dirname, '../../../..');

const problem = await postgresReachable();
if (problem) {
  if (requireServices) throw new Error(`REQUIRE_SERVICES=1 and ${problem}`);
  console.warn(`[server-process] SKIPPED postgres-connection-loss: ${problem}. Start PostgreSQL to run it.`);
}

async function onAdmin<T>(run: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  try {
    return await run(admin);
  } finally {
    await admin.end();
  }
}

/** The real server on PostgreSQL: connections ended from outside under load must not end the process. */
describe.skipIf(problem !== null)('server process on PostgreSQL losing its connections', () => {
  const database = `huafang_process_${newId()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')}`;
  let dataDir: string;
  let server: ChildProcess;
  let output = '';
  let port = 0;

  beforeAll(async () => {
    await onAdmin((admin) => admin.query(`create database ${database}`));
    const url = new URL(postgresAdminUrl);
    url.pathname = `/${database}`;
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'huafang-process-pg-'));
    server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: url.toString(),
        LOG_LEVEL: 'info',
        ADMIN_PASSWORD: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (d) => {
      output += d.toString();
    });
    server.stderr?.on('data', (d) => {
      output += d.toString();
    });
    const deadline = Date.now() + 45_000;
    while (!port) {
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`server did not start:\n${output}`);
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match?.[1]) port = Number(match[1]);
      else await new Promise((r) => setTimeout(r, 100));
    }
  });

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGKILL');
      await exited;
    }
    await onAdmin((admin) => admin.query(`drop database if exists ${database} with (force)`));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  type Answer = { status: number; body: { code: number; msg: string; data: unknown } };
  /** A refused connection (the process is gone) is an answer too, so the test reports it instead of throwing. */
  const readGallery = async (): Promise<Answer> => {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/works/public/list?current=1&pageSize=10`);
      return { status: res.status, body: (await res.json()) as Answer['body'] };
    } catch (err) {
      return { status: 0, body: { code: Number.NaN, msg: `no answer: ${(err as Error).message}`, data: null } };
    }
  };

  it('keeps serving while its connections are ended again and again under concurrent readers', async () => {
    const killing = terminateConnections(database, 8, 600);
    const answers = await readWhile(20, readGallery, killing);

    expect(await killing).toBeGreaterThan(0);
    expect(server.exitCode, `the server exited:\n${output.slice(-3000)}`).toBeNull();
    for (const answer of answers.filter((a) => a.body.code !== 0)) {
      expect(answer).toEqual({ status: 503, body: { code: -1, msg: '数据库连接中断，请稍后重试', data: null } });
    }
    expect(await readGallery()).toMatchObject({ status: 200, body: { code: 0 } });
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(await health.json()).toEqual({ code: 0, msg: 'ok', data: { status: 'ok' } });
  });
});
