import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { AlipayDouble } from '../doubles/alipay-double.js';
import { type ApiProcess, ScaleOutCluster } from '../helpers/scale-out-cluster.js';
import { until } from '../helpers/server-process.js';
import { postgresReachable, redisReachable, redisUrl, requireServices } from '../helpers/services.js';

const problem = (await postgresReachable()) ?? (await redisReachable());
if (problem) {
  if (requireServices) throw new Error(`REQUIRE_SERVICES=1 and ${problem}`);
  console.warn(`[server-process] SKIPPED scale-out payments: ${problem}. Start PostgreSQL and Redis to run it.`);
}

/** Behind a load balancer: Alipay notifies the public address, whichever API process then takes the request. */
const PUBLIC_BASE_URL = 'https://huafang.example.com';
/** The workers' payment sweep ticks every minute; a test that races it may wait for the next tick. */
const SWEEP_WAIT_MS = 130_000;

/**
 * Alipay over real processes: two API processes and two workers (`npm start` / `npm run worker`, scale-out mode) on
 * one PostgreSQL database and one Redis prefix, the Alipay channel configured by environment against the gateway
 * double in this test process. Whatever arrives at whichever process at once, a payment is credited exactly once.
 */
describe.skipIf(problem !== null)('scale-out processes: Alipay payments over 2 API processes', () => {
  const double = new AlipayDouble();
  let cluster: ScaleOutCluster;
  let plan: { id: string; priceFen: number; credits: number };
  const api = (i: number): ApiProcess => cluster.apis[i]!;
  // Mobiles of this run only: the pid keeps the SMS log lines apart from any other run's.
  const mobile = (n: number) => `138${String(process.pid % 10000).padStart(4, '0')}000${n}`;

  beforeAll(async () => {
    await double.start();
    // In scale-out mode the payment sweep runs where jobs run: both workers tick, one of them claims each tick.
    cluster = await ScaleOutCluster.start({ redisUrl, env: double.environment(PUBLIC_BASE_URL) });
    const store = await api(0).call('GET', '/api/account/combo/store', { token: await api(0).login() });
    expect(store.body.data.channels.map((c: { name: string }) => c.name)).toEqual(['alipay']);
    plan = store.body.data.plans.find((p: { purchasable: boolean }) => p.purchasable);
  }, 90_000);
  afterAll(async () => {
    await cluster?.close();
    await double.close();
  });
  const explainFailures = () => onTestFailed(() => console.log(cluster.logs()));

  /** The buyer orders the plan through `through` and opens Alipay's cashier page the answer points at. */
  async function buy(through: ApiProcess, token: string) {
    const res = await through.call('POST', '/api/pay/orders', {
      token,
      body: { planId: plan.id, channel: 'alipay', device: 'desktop' },
    });
    expect(res.body.code, res.body.msg).toBe(0);
    const { order, action } = res.body.data;
    expect((await fetch(action.url)).status).toBe(200);
    // Alipay is told the public address, not the address of the process that took the order.
    expect(double.notifyUrlOf(order.id)).toBe(`${PUBLIC_BASE_URL}/api/pay/notify/alipay`);
    return order.id as string;
  }

  /** Alipay's POST of the notification, as the load balancer hands it to one API process; what that one answered. */
  async function notify(through: ApiProcess, body: string): Promise<string> {
    const res = await fetch(`${through.baseUrl}/api/pay/notify/alipay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body,
    });
    return res.text();
  }

  const check = (through: ApiProcess, token: string, orderId: string) =>
    through.call('POST', `/api/pay/orders/${orderId}/check`, { token });

  /** One `plan` entry in the ledger, the balance up by the plan once and the order paid, seen from both processes. */
  async function expectCreditedOnce(token: string, orderId: string, start: number) {
    const ledger = await cluster.query<{ delta: number }>(
      "select delta from credit_ledger where reason = 'plan' and source_type = 'order' and source_id = $1",
      [orderId],
    );
    expect(ledger).toEqual([{ delta: plan.credits }]);
    for (const through of [api(0), api(1)]) {
      const res = await through.call('GET', `/api/pay/orders/${orderId}`, { token });
      expect(res.body.data.order).toMatchObject({ id: orderId, status: 'paid' });
      expect(res.body.data.credits).toBe(start + plan.credits);
      const mine = await through.call('GET', '/api/pay/orders', { token });
      expect(mine.body.data.list.filter((o: { status: string }) => o.status === 'paid')).toHaveLength(1);
    }
  }

  it('the same notification 20 times at once over both processes, with 我已支付 on each: credited once', async () => {
    explainFailures();
    const token = await api(1).register(mobile(1));
    const start = await api(1).credits(token);
    const orderId = await buy(api(0), token);
    const body = await double.pay(orderId, { deliver: false });

    const [answers, checks] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, (_, i) => notify(api(i % 2), body))),
      Promise.all([check(api(0), token, orderId), check(api(1), token, orderId)]),
    ]);

    expect(answers).toEqual(Array(20).fill('success'));
    for (const answer of checks) {
      expect(answer.body.code, answer.body.msg).toBe(0);
      expect(answer.body.data.order.status).toBe('paid');
    }
    await expectCreditedOnce(token, orderId, start);
    expect(cluster.exited()).toEqual([]);
  });

  it("a lost notification: a worker's sweep, 我已支付 on both processes and the late notification race, credited once", {
    timeout: SWEEP_WAIT_MS + 30_000,
  }, async () => {
    explainFailures();
    const token = await api(0).register(mobile(2));
    const start = await api(0).credits(token);
    const orderId = await buy(api(1), token);
    // Every query about this trade waits at the gateway until all the racers have asked.
    const queries = double.holdQueries(orderId);
    try {
      const body = await double.pay(orderId, { deliver: false });
      await until("a worker's sweep asks Alipay about the order", () => queries.arrived() > 0, SWEEP_WAIT_MS);
      const swept = queries.arrived();
      const checks = Promise.all([check(api(0), token, orderId), check(api(1), token, orderId)]);
      await until('both 我已支付 checks ask Alipay too', () => queries.arrived() >= swept + 2);
      // Alipay retries the notification it lost: it arrives at both processes as the three answers go out.
      const notices = Promise.all([notify(api(0), body), notify(api(1), body)]);
      queries.release();
      expect(await notices).toEqual(['success', 'success']);
      for (const answer of await checks) {
        expect(answer.body.code, answer.body.msg).toBe(0);
        expect(answer.body.data.order.status).toBe('paid');
      }
    } finally {
      queries.release();
    }
    await expectCreditedOnce(token, orderId, start);
    // The sweep had its answer too (a query that failed would be logged and tried again at the next tick).
    const sweepFailures = cluster.workers
      .flatMap((worker) => worker.logLines())
      .filter((line) => String(line.msg).startsWith('payment sweep'));
    expect(sweepFailures).toEqual([]);
    expect(cluster.exited()).toEqual([]);
  });
});
