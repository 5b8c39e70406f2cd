import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateWithApiKey } from '../../examples/generate-with-api-key.js';
import { freePort } from '../helpers/free-port.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';

const EXAMPLE = path.join(import.meta.dirname, '../../examples/generate-with-api-key.ts');
const API_DOC = path.join(import.meta.dirname, '../../../../docs/api.md');
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const SMALL = { width: 256, height: 256, steps: 4, batchSize: 2 };

/** docs/api.md's program, run as it is printed there, against the real server on a port. */
describeServer('the API program of docs/api.md', () => {
  const ctx = useTestApp({
    config: {
      webhooks: { allowHttp: true, allowPrivate: true, timeoutMs: 3000, maxAttempts: 3, retryBaseMs: 200 },
    },
    users: ['user'],
  });
  let baseUrl: string;
  let outDir: string;
  beforeAll(async () => {
    await ctx.app.app.listen({ port: 0, host: '127.0.0.1' });
    const address = ctx.app.app.server.address() as { port: number };
    baseUrl = `http://127.0.0.1:${address.port}`;
    outDir = await mkdtemp(path.join(os.tmpdir(), 'huafang-program-'));
  });
  afterAll(async () => {
    await rm(outDir, { recursive: true, force: true });
  });

  it('is printed in docs/api.md exactly as the file the test runs', async () => {
    expect(await readFile(API_DOC, 'utf8')).toContain(await readFile(EXAMPLE, 'utf8'));
  });

  it('submits with a key, waits for the signed webhook, and downloads the images', async () => {
    // The user creates the key and registers the program's receiver (the web page does the same).
    const created = await ctx.app.call('POST', '/api/user/apiKeys', {
      token: ctx.user.token,
      body: { name: '示例程序', scopes: ['generate'] },
    });
    expect(created.body.code, created.body.msg).toBe(0);
    const port = await freePort();
    const endpoint = await ctx.app.call('POST', '/api/user/webhooks', {
      token: ctx.user.token,
      body: { url: `http://127.0.0.1:${port}/`, events: ['generation.succeeded', 'generation.failed'] },
    });
    expect(endpoint.body.code, endpoint.body.msg).toBe(0);

    const outcome = await generateWithApiKey({
      baseUrl,
      apiKey: created.body.data.key,
      prompt: 'mountains, river',
      outDir,
      parameters: SMALL,
      webhook: { port, secret: endpoint.body.data.secret },
    });
    expect(outcome.status).toBe('succeeded');
    expect(outcome.event).toMatchObject({ type: 'generation.succeeded', data: { generateId: outcome.generateId } });
    expect(outcome.files).toHaveLength(2);
    for (const file of outcome.files) expect((await readFile(file)).subarray(0, 4)).toEqual(PNG_MAGIC);
    const log = await ctx.app.call('GET', `/api/user/webhooks/${endpoint.body.data.id}/deliveries`, {
      token: ctx.user.token,
    });
    expect(log.body.data.list[0]).toMatchObject({ eventId: outcome.event!.id, status: 'succeeded' });
    await ctx.app.call('DELETE', `/api/user/webhooks/${endpoint.body.data.id}`, { token: ctx.user.token });
  });

  it('polls the progress instead when no webhook is given', async () => {
    const created = await ctx.app.call('POST', '/api/user/apiKeys', {
      token: ctx.user.token,
      body: { name: '轮询', scopes: ['generate'] },
    });
    const outcome = await generateWithApiKey({
      baseUrl,
      apiKey: created.body.data.key,
      prompt: 'a red lantern',
      outDir,
      parameters: { ...SMALL, batchSize: 1 },
    });
    expect(outcome).toMatchObject({ status: 'succeeded', event: null });
    expect(outcome.files).toHaveLength(1);
    expect((await readFile(outcome.files[0]!)).subarray(0, 4)).toEqual(PNG_MAGIC);
  });

  it('stops with the message of the envelope when the key is wrong', async () => {
    await expect(
      generateWithApiKey({ baseUrl, apiKey: `hf_${'x'.repeat(43)}`, prompt: 'x', outDir, parameters: SMALL }),
    ).rejects.toThrow('POST /api/generate/task 失败（HTTP 401）：API 密钥无效或已删除');
  });
});
