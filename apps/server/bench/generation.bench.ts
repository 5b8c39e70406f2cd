import os from 'node:os';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { BuiltinEngine } from '../src/engines/builtin/builtin-engine.js';
import type { EngineJob } from '../src/engines/engine.js';
import { demoTemplate, generateBody } from '../test/generate/generation-helpers.js';
import { createTestApp, registerUser } from '../test/helpers/test-app.js';

/**
 * Figures for the generation API on the embedded default (SQLite, built-in engine), printed, never asserted:
 * 1. `progress` under 200 concurrent pollers while a generation runs: median and p99 latency, requests/s;
 * 2. the end-to-end overhead of a built-in generation through the API against calling the engine directly.
 */
const POLLERS = 200;
const POLL_SECONDS = 10;
const RUNS = 5;
const PARAMS = { width: 512, height: 512, steps: 20, batchSize: 1 };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The default log level (info, a line per request) as in production; the lines kept in memory are dropped as they come.
const app = await createTestApp({ queue: { maxRunningPerUser: 1, maxQueuedPerUser: 50, maxAttempts: 3 } });
const dropLogs = setInterval(() => {
  app.logLines.length = 0;
}, 500);
try {
  const user = await registerUser(app);
  await app.db.updateTable('users').set({ credits: 10_000 }).where('id', '=', user.userId).execute();
  const template = await demoTemplate(app, user.token, '水墨山水');
  const submit = async (parameters: object) => {
    const res = await app.call('POST', '/api/generate/task', {
      token: user.token,
      body: generateBody(template, parameters),
    });
    if (res.body.code !== 0) throw new Error(res.body.msg);
    return res.body.data.generateId as string;
  };
  const finished = async (generateId: string) => {
    for (;;) {
      const res = await app.call('POST', '/api/generate/task/progress', { token: user.token, body: { generateId } });
      if (!['queued', 'running'].includes(res.body.data.status)) return res.body.data;
      await sleep(10);
    }
  };

  // 1. Pollers against a running generation (long enough to outlast the measurement).
  const address = await app.app.listen({ port: 0, host: '127.0.0.1' });
  const busy = await submit({ width: 1024, height: 1024, steps: 50, batchSize: 4 });
  const result = await autocannon({
    url: `${address}/api/generate/task/progress`,
    method: 'POST',
    connections: POLLERS,
    // The load generator in its own thread, so it does not compete with the server's event loop.
    workers: 1,
    duration: POLL_SECONDS,
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ generateId: busy }),
  });
  await app.call('POST', '/api/generate/task/interrupt', { token: user.token, body: { generateId: busy } });
  await finished(busy);
  console.log(
    `progress, ${POLLERS} concurrent pollers for ${POLL_SECONDS} s while a generation runs on the built-in engine:`,
  );
  console.log(
    `  median ${result.latency.p50} ms · p99 ${result.latency.p99} ms · ${Math.round(result.requests.average)} requests/s · ` +
      `${result.non2xx} non-2xx · ${result.errors} errors`,
  );

  // 2. The same 512×512, 20-step job through the API and directly.
  const engine = new BuiltinEngine();
  const job: EngineJob = {
    mode: 'txt2img',
    prompt: template.taskStepList[0].promptGroup.map((w: { promptText: string }) => w.promptText).join(', '),
    negativePrompt: '',
    checkpoint: 'builtin-ink',
    sampler: 'Euler a',
    steps: PARAMS.steps,
    cfgScale: 7,
    width: PARAMS.width,
    height: PARAMS.height,
    seed: 1,
    batchSize: 1,
  };
  const direct: number[] = [];
  const viaApi: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    let start = performance.now();
    await engine.run({ ...job, seed: i + 1 });
    direct.push(performance.now() - start);
    start = performance.now();
    await finished(await submit({ ...PARAMS, seed: i + 1 }));
    viaApi.push(performance.now() - start);
  }
  const d = median(direct);
  const a = median(viaApi);
  console.log(`built-in generation 512×512, 20 steps, median of ${RUNS} (polling every 10 ms):`);
  console.log(
    `  engine directly ${d.toFixed(0)} ms · through the API ${a.toFixed(0)} ms · overhead ratio ${(a / d).toFixed(2)} ` +
      `(goal ≤ 1.10; load average ${os
        .loadavg()
        .map((v) => v.toFixed(1))
        .join(' ')})`,
  );
} finally {
  clearInterval(dropLogs);
  await app.close();
}
