import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import { readWhile, terminateConnections } from '../helpers/connection-killer.js';
import { type ProcessAnswer, ServerProcess } from '../helpers/server-process.js';
import { postgresAdminUrl, postgresReachable, requireServices } from '../helpers/services.js';

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
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    await onAdmin((admin) => admin.query(`create database ${database}`));
    const url = new URL(postgresAdminUrl);
    url.pathname = `/${database}`;
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'huafang-process-pg-'));
    server = await ServerProcess.start(dataDir, { DATABASE_URL: url.toString(), ADMIN_PASSWORD: '' });
  });

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await onAdmin((admin) => admin.query(`drop database if exists ${database} with (force)`));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** A refused connection (the process is gone) is an answer too, so the test reports it instead of throwing. */
  const readGallery = async (): Promise<ProcessAnswer> => {
    try {
      return await server!.call('GET', '/api/works/public/list?current=1&pageSize=10');
    } catch (err) {
      return { status: 0, body: { code: Number.NaN, msg: `no answer: ${(err as Error).message}`, data: null } };
    }
  };

  it('keeps serving while its connections are ended again and again under concurrent readers', async () => {
    const killing = terminateConnections(database, 8, 600);
    const answers = await readWhile(20, readGallery, killing);

    expect(await killing).toBeGreaterThan(0);
    expect(server!.alive, `the server exited:\n${server!.output.slice(-3000)}`).toBe(true);
    for (const answer of answers.filter((a) => a.body.code !== 0)) {
      expect(answer).toEqual({ status: 503, body: { code: -1, msg: '数据库连接中断，请稍后重试', data: null } });
    }
    expect(await readGallery()).toMatchObject({ status: 200, body: { code: 0 } });
    expect((await server!.call('GET', '/api/health')).body).toEqual({ code: 0, msg: 'ok', data: { status: 'ok' } });
  });
});
