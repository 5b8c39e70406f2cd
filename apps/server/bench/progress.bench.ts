import os from 'node:os';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { newId } from '../src/platform/ids.js';
import { type A1111Double, startA1111Double } from '../test/doubles/a1111-double.js';
import {
  type BenchProcess,
  cpuSecondsOf,
  Deployment,
  dropRedisKeys,
  loginAdmin,
  registerUser,
} from './scale-out-processes.js';

/**
 * `progress` (the poll of the draw page) with 200 concurrent pollers, in the embedded mode (one process, SQLite,
 * jobs run inside it) and in scale-out mode (PostgreSQL + Redis, a worker process runs the jobs), each against a
 * plain Fastify process answering the same JSON in the same run (the ceiling). Printed, never asserted.
 * Goal (issue 24): the product at ≥ 0.9 of the plain route in both modes. The plain route writes Fastify's two
 * request lines per request and the progress route none, which flatters the product: BENCH_PLAIN_QUIET=1 drops
 * them for the like-for-like ceiling.
 *
 * Rounds alternate product and plain so a neighbour's load on this shared machine falls on both alike; the ratio
 * is the median of the rounds' ratios.
 */
const POLLERS = 200;
const SECONDS = Number(process.env.BENCH_PROGRESS_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_PROGRESS_ROUNDS ?? 8);
const GOAL = 0.9;
const CHECKPOINT = 'anything-v5.safetensors [7f96a1a9ca]';
const RUN_PREFIX = `hfbench-${newId()
  .toLowerCase()
  .replace(/[^a-z0-9]/g, '')
  .slice(-12)}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const pad = (value: string | number, width: number) => String(value).padStart(width);
const loadAverage = () =>
  os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');

/** `cpuUs`: CPU time the target process spent per answer, in microseconds (less swayed by neighbours than rps). */
type Load = { rps: number; p50: number; p99: number; problems: number; cpu: number; cpuUs: number };

async function load(target: BenchProcess, path: string, ids: string[], token: string, seconds: number) {
  const cpuBefore = cpuSecondsOf(target.pid);
  const start = performance.now();
  const result = await autocannon({
    url: target.url,
    connections: POLLERS,
    // The load generator in its own thread, so it does not compete with this process's event loop.
    workers: 1,
    duration: seconds,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    requests: ids.map((generateId) => ({ method: 'POST', path, body: JSON.stringify({ generateId }) })),
  });
  const elapsed = (performance.now() - start) / 1000;
  const cpuSeconds = cpuSecondsOf(target.pid) - cpuBefore;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    problems: result.non2xx + result.errors,
    cpu: (100 * cpuSeconds) / elapsed,
    cpuUs: (1e6 * cpuSeconds) / Math.max(1, result.requests.total),
  } satisfies Load;
}

/** Two generations running on slow doubles and two waiting behind them, as a busy draw page polls. */
async function busyGenerations(api: BenchProcess, doubles: A1111Double[]): Promise<{ token: string; ids: string[] }> {
  const admin = await loginAdmin(api);
  const group = await api.ok<{ id: string }>('POST', '/api/admin/model-groups', {
    token: admin,
    body: { name: '慢速' },
  });
  const model = await api.ok<{ id: string }>('POST', '/api/admin/models', {
    token: admin,
    body: { groupId: group.id, modelName: '慢速', baseModel: 'SD 1.5', engine: 'sdwebui', checkpoint: CHECKPOINT },
  });
  for (const [i, double] of doubles.entries()) {
    const backend = await api.ok<{ healthy: boolean; healthMessage: string }>('POST', '/api/admin/backends', {
      token: admin,
      body: { name: `慢速-${i + 1}`, kind: 'sdwebui', baseUrl: double.url, models: [CHECKPOINT], enabled: true },
    });
    if (!backend.healthy) throw new Error(`backend unhealthy: ${backend.healthMessage}`);
  }
  const token = await registerUser(api);
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) {
    const { generateId } = await api.ok<{ generateId: string }>('POST', '/api/generate/task', {
      token,
      body: {
        templateId: null,
        promptGroup: [{ id: 'p1', groupName: '山水', promptText: 'mountains, river', custom: '1' }],
        negativePromptGroup: [],
        parameters: { modelId: model.id, width: 256, height: 256, steps: 50, batchSize: 1, seed: i + 1 },
      },
    });
    ids.push(generateId);
  }
  for (let i = 0; ; i++) {
    const states = await Promise.all(
      ids.map(
        async (generateId) =>
          (await api.ok<{ status: string }>('POST', '/api/generate/task/progress', { token, body: { generateId } }))
            .status,
      ),
    );
    const running = states.filter((s) => s === 'running').length;
    const waiting = states.filter((s) => s === 'queued').length;
    // Two running and two waiting, or after 30 s whatever mix the backends' health allowed, as long as nothing ended.
    if ((running === 2 && waiting === 2) || (i > 300 && running >= 1 && running + waiting === 4)) break;
    if (i > 300) throw new Error(`expected 2 running and 2 queued, got ${states.join(', ')}`);
    await sleep(100);
  }
  return { token, ids };
}

async function measure(label: string, deployment: Deployment, api: BenchProcess) {
  // Doubles of its own: an interrupted job of an earlier mode may still hold a double's step.
  const doubles = [await startA1111Double({ stepDelayMs: 5000 }), await startA1111Double({ stepDelayMs: 5000 })];
  allDoubles.push(...doubles);
  const { token, ids } = await busyGenerations(api, doubles);
  const answers: Record<string, unknown> = {};
  for (const generateId of ids) {
    answers[generateId] = (await api.call('POST', '/api/generate/task/progress', { token, body: { generateId } })).body;
  }
  const plain = await deployment.plain(`plain-${label}`, answers);
  await load(api, '/api/generate/task/progress', ids, token, 2);
  await load(plain, '/progress', ids, token, 2);
  const rounds: { api: Load; plain: Load }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // ABBA order, so a neighbour's load that grows or fades during a pair weighs on both alike.
    const first = round % 2 === 0;
    const p = first ? undefined : await load(plain, '/progress', ids, token, SECONDS);
    const a = await load(api, '/api/generate/task/progress', ids, token, SECONDS);
    rounds.push({ api: a, plain: p ?? (await load(plain, '/progress', ids, token, SECONDS)) });
  }
  const ratios = rounds.map((r) => r.api.rps / r.plain.rps);
  const sum = (pick: (r: { api: Load; plain: Load }) => number) => rounds.reduce((total, r) => total + pick(r), 0);
  const mid = rounds[ratios.indexOf(median(ratios))]!;
  const problems = sum((r) => r.api.problems + r.plain.problems);
  const cpuUs = (pick: (r: { api: Load; plain: Load }) => number) => median(rounds.map(pick)).toFixed(0);
  console.log(
    `  ${label.padEnd(9)} | ${pad(Math.round(sum((r) => r.api.rps) / ROUNDS), 12)} | ` +
      `${pad(`${mid.api.p50}/${mid.api.p99}`, 10)} | ${pad(
        cpuUs((r) => r.api.cpuUs),
        10,
      )} | ` +
      `${pad(Math.round(sum((r) => r.plain.rps) / ROUNDS), 9)} | ${pad(`${mid.plain.p50}/${mid.plain.p99}`, 10)} | ` +
      `${pad(
        cpuUs((r) => r.plain.cpuUs),
        10,
      )} | ${pad(median(ratios).toFixed(2), 5)} | ${GOAL}  | ` +
      `${ratios.map((r) => r.toFixed(2)).join(' ')} | ${problems}`,
  );
  for (const generateId of ids) {
    await api.call('POST', '/api/generate/task/interrupt', { token, body: { generateId } });
  }
}

console.log(
  `progress with ${POLLERS} concurrent pollers (autocannon in its own thread; requests alternate over 4 generations, ` +
    `running and queued), ${ROUNDS} alternating rounds of ${SECONDS} s; plain = Fastify in its own process ` +
    `answering the same JSON at the same log level (info), ${
      process.env.BENCH_PLAIN_QUIET === '1'
        ? 'without request lines (BENCH_PLAIN_QUIET=1), as progress logs none'
        : 'with two request lines per request (progress logs none; BENCH_PLAIN_QUIET=1 for the like-for-like ceiling)'
    }. ${os.cpus().length} cores, Node ${process.version}, ` +
    `load average at start ${loadAverage()}`,
);
console.log(
  '  mode      | progress rps | p50/p99 ms | CPU µs/req | plain rps | p50/p99 ms | CPU µs/req | ratio | goal | ' +
    'ratio of each round | non-2xx+errors',
);
const allDoubles: A1111Double[] = [];
try {
  const modes = (process.env.BENCH_PROGRESS_MODES ?? 'embedded,scale-out').split(',');
  if (modes.includes('embedded')) {
    const embedded = await Deployment.embedded(`${RUN_PREFIX}-emb`, {
      NEW_USER_CREDITS: '100000',
      QUEUE_MAX_RUNNING_PER_USER: '2',
    });
    try {
      await measure('embedded', embedded, await embedded.api('api-embedded'));
    } finally {
      await embedded.close();
    }
  }
  if (modes.includes('scale-out')) {
    const scaleOut = await Deployment.create(`${RUN_PREFIX}-so`, {
      NEW_USER_CREDITS: '100000',
      QUEUE_MAX_RUNNING_PER_USER: '2',
      WORKER_CONCURRENCY: '4',
    });
    try {
      const api = await scaleOut.api('api-scale-out');
      await scaleOut.worker('worker');
      await measure('scale-out', scaleOut, api);
    } finally {
      await scaleOut.close();
    }
  }
} finally {
  await Promise.allSettled(allDoubles.map((double) => double.close()));
  await dropRedisKeys(`${RUN_PREFIX}*`);
}
console.log(`  load average at the end: ${loadAverage()}`);
