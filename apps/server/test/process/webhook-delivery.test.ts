import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { type ApiProcess, ScaleOutCluster } from '../helpers/scale-out-cluster.js';
import { until } from '../helpers/server-process.js';
import { postgresReachable, redisReachable, redisUrl, requireServices } from '../helpers/services.js';
import { startReceiver } from '../webhooks/webhook-receiver.js';

const problem = (await postgresReachable()) ?? (await redisReachable());
if (problem) {
  if (requireServices) throw new Error(`REQUIRE_SERVICES=1 and ${problem}`);
  console.warn(`[server-process] SKIPPED webhook delivery: ${problem}. Start PostgreSQL and Redis to run it.`);
}

const SMALL = { width: 256, height: 256, steps: 4 };
const SLOW_ENDPOINTS = 5;
describe.skipIf(problem !== null)('webhook deliveries over 2 API processes and 2 workers', { timeout: 150_000 }, () => {
  let cluster: ScaleOutCluster;
  let slow: Awaited<ReturnType<typeof startReceiver>>[];
  let fast: Awaited<ReturnType<typeof startReceiver>>;
  const api = (i: number): ApiProcess => cluster.apis[i]!;

  beforeAll(async () => {
    slow = await Promise.all(Array.from({ length: SLOW_ENDPOINTS }, () => startReceiver()));
    fast = await startReceiver();
    cluster = await ScaleOutCluster.start({
      redisUrl,
      // The receivers are on 127.0.0.1 over http; a try may wait a minute, longer than the test holds them.
      env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_SECONDS: '60' },
    });
  }, 90_000);
  afterAll(async () => {
    for (const receiver of slow ?? []) receiver.release();
    await cluster?.close();
    await Promise.all([...(slow ?? []), fast].map((receiver) => receiver?.close()));
  });

  const addEndpoint = async (through: ApiProcess, token: string, url: string) => {
    const res = await through.call('POST', '/api/user/webhooks', {
      token,
      body: { url, events: ['generation.succeeded'] },
    });
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data.id as string;
  };
  const deliveries = async (token: string, endpointId: string) => {
    const res = await api(0).call('GET', `/api/user/webhooks/${endpointId}/deliveries`, { token });
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data.list as { status: string; attempts: number }[];
  };
  const generate = async (through: ApiProcess, token: string) => {
    const { final } = await through.waitForEnd(token, await through.submit(token, SMALL));
    expect(final.status, final.message ?? '').toBe('succeeded');
  };

  it("five receivers that sit on their answers do not delay another user's event, and nothing is sent twice", async () => {
    onTestFailed(() => console.log(cluster.logs()));
    const admin = await api(0).login();
    const user = await api(1).register(`1370000${String(process.pid % 10000).padStart(4, '0')}`);
    for (const receiver of slow) receiver.hold();
    const slowIds = await Promise.all(slow.map((receiver) => addEndpoint(api(0), admin, receiver.url)));
    const fastId = await addEndpoint(api(1), user, fast.url);

    await generate(api(0), admin);
    await until('every slow receiver holds its request', () => slow.every((receiver) => receiver.waiting === 1));
    await generate(api(1), user);

    await until("the other user's event arrives", () => fast.of('generation.succeeded').length === 1);
    // The slow receivers still hold their requests: their deliveries are pending, no attempt recorded yet.
    expect(slow.map((receiver) => [receiver.waiting, receiver.received.length])).toEqual(slow.map(() => [1, 1]));
    for (const id of slowIds) {
      expect(await deliveries(admin, id)).toEqual([expect.objectContaining({ status: 'pending', attempts: 0 })]);
    }
    await until(
      'the fast delivery is recorded',
      async () => (await deliveries(user, fastId))[0]?.status === 'succeeded',
    );

    for (const receiver of slow) receiver.release();
    for (const id of slowIds) {
      await until('a slow delivery is recorded', async () => (await deliveries(admin, id))[0]?.status === 'succeeded');
      expect(await deliveries(admin, id)).toEqual([expect.objectContaining({ status: 'succeeded', attempts: 1 })]);
    }
    // Two workers, each looking for due deliveries: every event reached every endpoint once.
    expect(slow.map((receiver) => receiver.received.length)).toEqual(slow.map(() => 1));
    expect(fast.received).toHaveLength(1);
    expect(cluster.exited()).toEqual([]);
  });
});
