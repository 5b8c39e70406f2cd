import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWhile, terminateConnections } from '../helpers/connection-killer.js';
import { type ProcessAnswer, ServerProcess } from '../helpers/server-process.js';
import { createTestDatabase, postgresReachable, requireServices, type TestDatabase } from '../helpers/services.js';

const problem = await postgresReachable();
if (problem) {
  if (requireServices) throw new Error(`REQUIRE_SERVICES=1 and ${problem}`);
  console.warn(`[server-process] SKIPPED postgres-connection-loss: ${problem}. Start PostgreSQL to run it.`);
}

/** The real server on PostgreSQL: connections ended from outside under load must not end the process. */
describe.skipIf(problem !== null)('server process on PostgreSQL losing its connections', () => {
  let database: TestDatabase | undefined;
  let dataDir: string;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    database = await createTestDatabase('huafang_process');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'huafang-process-pg-'));
    server = await ServerProcess.start(dataDir, { DATABASE_URL: database.url, ADMIN_PASSWORD: '' });
  });

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await database?.drop();
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
    if (!database) throw new Error('the database was not created');
    const killing = terminateConnections(database.name, 8, 600);
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
