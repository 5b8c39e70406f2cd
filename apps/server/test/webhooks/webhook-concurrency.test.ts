import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitForEnd } from '../generate/generation-helpers.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { startReceiver } from './webhook-receiver.js';

const SMALL = { width: 256, height: 256, steps: 4 };
const POLL = { timeout: 20_000, interval: 50 };
const SLOW_ENDPOINTS = 5;

describeServer('webhook delivery concurrency', () => {
  const ctx = useTestApp({
    config: {
      // A try may wait a minute for its answer: the slow receivers below hold theirs until the test lets them go.
      webhooks: { allowHttp: true, allowPrivate: true, timeoutMs: 60_000, maxAttempts: 3, retryBaseMs: 200 },
    },
    users: ['slowUser', 'fastUser'],
  });
  let slow: Awaited<ReturnType<typeof startReceiver>>[];
  let fast: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    slow = await Promise.all(Array.from({ length: SLOW_ENDPOINTS }, () => startReceiver()));
    fast = await startReceiver();
  });
  afterAll(async () => {
    for (const receiver of slow ?? []) receiver.release();
    await Promise.all([...(slow ?? []), fast].map((receiver) => receiver?.close()));
  });

  const addEndpoint = async (token: string, url: string) => {
    const res = await ctx.app.call('POST', '/api/user/webhooks', {
      token,
      body: { url, events: ['generation.succeeded'] },
    });
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data.id as string;
  };
  const deliveries = async (token: string, endpointId: string) => {
    const res = await ctx.app.call('GET', `/api/user/webhooks/${endpointId}/deliveries`, { token });
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data.list as { status: string; attempts: number }[];
  };
  const generate = async (token: string) => {
    const submit = await ctx.app.call('POST', '/api/generate/task', {
      token,
      body: {
        templateId: null,
        promptGroup: [{ id: 'p1', groupName: '山', promptText: 'mountain' }],
        parameters: SMALL,
      },
    });
    expect(submit.body.code, submit.body.msg).toBe(0);
    const { final } = await waitForEnd(ctx.app, token, submit.body.data.generateId);
    expect(final.status).toBe('succeeded');
  };

  it("delivers another user's event while five receivers sit on theirs, one try at a time to each", async () => {
    for (const receiver of slow) receiver.hold();
    const slowIds = await Promise.all(slow.map((receiver) => addEndpoint(ctx.slowUser.token, receiver.url)));
    const fastId = await addEndpoint(ctx.fastUser.token, fast.url);

    await generate(ctx.slowUser.token);
    // Every slow receiver has its request and holds the answer.
    await expect.poll(() => slow.map((receiver) => receiver.waiting), POLL).toEqual(slow.map(() => 1));
    // A second event for each slow endpoint, older than the fast user's event below.
    await generate(ctx.slowUser.token);
    await generate(ctx.fastUser.token);

    await expect.poll(() => fast.of('generation.succeeded').length, POLL).toBe(1);
    await expect.poll(async () => (await deliveries(ctx.fastUser.token, fastId))[0]?.status, POLL).toBe('succeeded');
    // Meanwhile the slow receivers still hold their first request, and none got its second: one try in flight to
    // an endpoint at a time, both deliveries still pending with no attempt recorded.
    expect(slow.map((receiver) => [receiver.waiting, receiver.received.length])).toEqual(slow.map(() => [1, 1]));
    for (const id of slowIds) {
      expect(await deliveries(ctx.slowUser.token, id)).toEqual([
        expect.objectContaining({ status: 'pending', attempts: 0 }),
        expect.objectContaining({ status: 'pending', attempts: 0 }),
      ]);
    }

    for (const receiver of slow) receiver.release();
    for (const id of slowIds) {
      await expect
        .poll(async () => (await deliveries(ctx.slowUser.token, id)).map((d) => [d.status, d.attempts]), POLL)
        .toEqual([
          ['succeeded', 1],
          ['succeeded', 1],
        ]);
    }
    expect(slow.map((receiver) => receiver.of('generation.succeeded').length)).toEqual(slow.map(() => 2));
  });

  it('answers 测试发送 within 5 s when the receiver does not answer, though deliveries may wait a minute', async () => {
    const receiver = slow[0]!;
    receiver.hold();
    const endpointId = await addEndpoint(ctx.fastUser.token, receiver.url);
    const res = await ctx.app.call('POST', `/api/user/webhooks/${endpointId}/test`, { token: ctx.fastUser.token });
    expect(res.body).toMatchObject({
      code: 0,
      msg: '测试发送失败：接收地址在 5 秒内没有应答',
      data: { success: false, statusCode: null, error: '接收地址在 5 秒内没有应答' },
    });
    expect(receiver.of('webhook.test')).toHaveLength(1);
    expect(await deliveries(ctx.fastUser.token, endpointId)).toEqual([
      expect.objectContaining({ status: 'failed', attempts: 1 }),
    ]);
    receiver.release();
  });
});
