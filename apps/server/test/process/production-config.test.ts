import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerProcess } from '../helpers/server-process.js';

const PRODUCER = '91110000MA01ABCDEF';

/** NODE_ENV=production: the real processes refuse placeholders and a missing AIGC_PRODUCER before doing anything. */
describe('server process in production: start-up refusals', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'huafang-production-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it("the API refuses the example's URL_SIGNING_SECRET, naming it in Chinese and English", async () => {
    const server = new ServerProcess(
      dataDir,
      {
        NODE_ENV: 'production',
        AIGC_PRODUCER: PRODUCER,
        ADMIN_PASSWORD: '',
        URL_SIGNING_SECRET: 'CHANGE_ME_url_signing_secret_32_chars',
      },
      { compiled: true },
    );
    expect(await server.exited).not.toBe(0);
    expect(server.output).toContain('URL_SIGNING_SECRET: 是占位符或太弱（生产环境至少 32 个字符');
    expect(server.output).toContain('URL_SIGNING_SECRET is a placeholder or too weak');
    expect(server.output).not.toContain('Server listening');
  });

  it('the worker refuses to start without AIGC_PRODUCER', async () => {
    const worker = new ServerProcess(
      dataDir,
      { NODE_ENV: 'production', ADMIN_PASSWORD: '' },
      { script: 'apps/server/src/worker.ts', compiled: true },
    );
    expect(await worker.exited).not.toBe(0);
    expect(worker.output).toContain('AIGC_PRODUCER: 生产环境必须设置 AI 生成内容隐式标识的服务提供者名称或编码');
    expect(worker.output).toContain('AIGC_PRODUCER is required in production');
  });

  it('starts with AIGC_PRODUCER set and URL_SIGNING_SECRET unset', async () => {
    const server = await ServerProcess.start(
      dataDir,
      {
        NODE_ENV: 'production',
        AIGC_PRODUCER: PRODUCER,
        ADMIN_PASSWORD: '',
      },
      { compiled: true },
    );
    try {
      expect((await server.call('GET', '/api/health')).body).toMatchObject({ code: 0 });
    } finally {
      await server.stop('SIGKILL');
    }
  });
});
