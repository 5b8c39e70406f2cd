import os from 'node:os';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { newId } from '../src/platform/ids.js';
import { type A1111Double, startA1111Double } from '../test/doubles/a1111-double.js';
import { redisUrl } from '../test/helpers/services.js';
import {
  type BenchProcess,
  cpuSecondsOf,
  Deployment,
  dropRedisKeys,
  inBatches,
  loginAdmin,
  machineCpuSeconds,
  registerUser,
} from './scale-out-processes.js';

/**
 * Figures for scale-out mode (PostgreSQL + Redis + BullMQ, real `main.ts` and `worker.ts` processes), printed,
 * never asserted:
 * 1. generations per second through BullMQ with 1, 2 and 4 worker processes, each row on a fresh database: (a) on a
 *    zero-cost engine (AUTOMATIC1111 test doubles answering a 256×256 (the smallest the form takes), one-step
 *    picture at once), which measures what the pipeline itself costs; (b) on a GPU-like engine (doubles taking
 *    200 ms a picture, two jobs at a time per worker), which measures whether the shared parts (BullMQ, backend
 *    leases, PostgreSQL) let added workers add throughput when the work is on the inference servers;
 * 2. `progress` requests per second with 200 concurrent pollers through 1 and 2 API processes, against as many
 *    plain Fastify processes answering the same JSON (the ceiling);
 * 3. the time from `interrupt` on one API process to `progress` on the other showing the job interrupted.
 */
const WORKER_COUNTS = [1, 2, 4];
/** Running quota per user: users × QUOTA jobs are in BullMQ at once, more than 4 workers run together in either table. */
const QUOTA = 2;

/** One throughput table: how many jobs, and what the engine and each worker process do. */
type Scenario = {
  /** Jobs a worker process runs at once; every one finds a free double (doubles ≥ 4 × this). */
  concurrency: number;
  /** Time of one sampling step on the doubles. */
  stepDelayMs: number;
  steps: number;
  users: number;
  jobsPerUser: number;
};
const ZERO_COST: Scenario = {
  concurrency: Number(process.env.BENCH_WORKER_CONCURRENCY ?? 8),
  stepDelayMs: 0,
  steps: 1,
  users: 32,
  jobsPerUser: 10,
};
/** Like one GPU server per job slot: 10 steps of 20 ms, so a picture takes 200 ms on its backend. */
const GPU_LIKE: Scenario = { concurrency: 2, stepDelayMs: 20, steps: 10, users: 16, jobsPerUser: 8 };
const POLLERS = 200;
const POLL_SECONDS = 10;
const WARMUP_SECONDS = 2;
const ROUNDS = 2;
const INTERRUPT_RUNS = 10;
const CHECKPOINT = 'v1-5-pruned-emaonly.safetensors [6ce0161689]';
const SLOW_CHECKPOINT = 'anything-v5.safetensors [7f96a1a9ca]';
const STOP_CHECKPOINT = 'majicmixRealistic_v7.safetensors [7c819b6d13]';

const RUN_PREFIX = `hfbench-${newId()
  .toLowerCase()
  .replace(/[^a-z0-9]/g, '')
  .slice(-12)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const pad = (value: string | number, width: number) => String(value).padStart(width);

const freeCreation = (modelId: string, parameters: object) => ({
  templateId: null,
  promptGroup: [{ id: 'p1', groupName: '山水', promptText: 'mountains, river', custom: '1' }],
  negativePromptGroup: [],
  parameters: { modelId, ...parameters },
});

/** A model group, a model on `checkpoint`, and the doubles registered as the backends serving it. */
async function serveModel(api: BenchProcess, admin: string, name: string, checkpoint: string, doubles: A1111Double[]) {
  const group = await api.ok<{ id: string }>('POST', '/api/admin/model-groups', { token: admin, body: { name } });
  const model = await api.ok<{ id: string }>('POST', '/api/admin/models', {
    token: admin,
    body: { groupId: group.id, modelName: name, baseModel: 'SD 1.5', engine: 'sdwebui', checkpoint },
  });
  await inBatches(
    8,
    doubles.map((double, i) => async () => {
      const backend = await api.ok<{ healthy: boolean; healthMessage: string }>('POST', '/api/admin/backends', {
        token: admin,
        body: { name: `${name}-${i + 1}`, kind: 'sdwebui', baseUrl: double.url, models: [checkpoint], enabled: true },
      });
      if (!backend.healthy) throw new Error(`backend ${name}-${i + 1} unhealthy: ${backend.healthMessage}`);
    }),
  );
  return model.id;
}

type Progress = { status: string; progress: number };

const bullConnection = () => new Redis(redisUrl, { maxRetriesPerRequest: null });

/** CPU seconds used so far by the given processes, by this process (the doubles live here) and by the machine. */
function cpuSnapshot(groups: Record<string, BenchProcess[]>) {
  const usage = process.cpuUsage();
  return {
    groups: Object.fromEntries(
      Object.entries(groups).map(([name, procs]) => [name, procs.reduce((sum, p) => sum + cpuSecondsOf(p.pid), 0)]),
    ),
    bench: (usage.user + usage.system) / 1e6,
    machine: machineCpuSeconds(),
  };
}

/** What each took between two snapshots, in CPU seconds; `rest` is the machine's busy time nobody above used. */
function cpuBetween(a: ReturnType<typeof cpuSnapshot>, b: ReturnType<typeof cpuSnapshot>) {
  const groups = Object.fromEntries(Object.keys(a.groups).map((name) => [name, b.groups[name]! - a.groups[name]!]));
  const bench = b.bench - a.bench;
  const busy = b.machine.busy - a.machine.busy;
  const mine = Object.values(groups).reduce((sum, v) => sum + v, 0) + bench;
  return { groups, bench, rest: Math.max(0, busy - mine), busyShare: busy / (b.machine.total - a.machine.total) };
}

type ThroughputRow = {
  workers: number;
  jobs: number;
  seconds: number;
  statuses: string;
  cpu: ReturnType<typeof cpuBetween>;
};

/** A fresh deployment: jobs submitted while the queue is paused, then timed from resume to the last one settled. */
async function throughput(
  name: string,
  scenario: Scenario,
  workers: number,
  doubles: A1111Double[],
): Promise<ThroughputRow> {
  const deployment = await Deployment.create(`${RUN_PREFIX}-${name}${workers}`, {
    SEED_DEMO: 'false',
    NEW_USER_CREDITS: '100000',
    QUEUE_MAX_RUNNING_PER_USER: String(QUOTA),
    QUEUE_MAX_QUEUED_PER_USER: String(scenario.jobsPerUser),
    WORKER_CONCURRENCY: String(scenario.concurrency),
  });
  const connection = bullConnection();
  const queue = new Queue('generation', { connection, prefix: `${deployment.prefix}:bull` });
  const db = new pg.Client({ connectionString: deployment.databaseUrl });
  try {
    const api = await deployment.api('api');
    await db.connect();
    const admin = await loginAdmin(api);
    const modelId = await serveModel(api, admin, '零耗时', CHECKPOINT, doubles);
    const tokens = await inBatches(
      8,
      Array.from({ length: scenario.users }, () => () => registerUser(api)),
    );
    await queue.pause();
    const workerProcs = await Promise.all(
      Array.from({ length: workers }, (_, i) => deployment.worker(`worker-${i + 1}`)),
    );
    await inBatches(
      16,
      tokens.flatMap((token, u) =>
        Array.from(
          { length: scenario.jobsPerUser },
          (_, j) => () =>
            api.ok('POST', '/api/generate/task', {
              token,
              body: freeCreation(modelId, {
                width: 256,
                height: 256,
                steps: scenario.steps,
                batchSize: 1,
                seed: u * 1000 + j,
              }),
            }),
        ),
      ),
    );
    const jobs = scenario.users * scenario.jobsPerUser;
    const cpuBefore = cpuSnapshot({ workers: workerProcs, api: [api] });
    const start = performance.now();
    await queue.resume();
    const deadline = Date.now() + 10 * 60_000;
    for (;;) {
      const { rows } = await db.query(
        `select count(*)::int as n from generation_jobs where status in ('queued', 'running')`,
      );
      if (rows[0].n === 0) break;
      if (Date.now() > deadline) throw new Error(`${rows[0].n} jobs still unfinished after 10 minutes`);
      await sleep(20);
    }
    const seconds = (performance.now() - start) / 1000;
    const cpu = cpuBetween(cpuBefore, cpuSnapshot({ workers: workerProcs, api: [api] }));
    const { rows } = await db.query(
      'select status, count(*)::int as n from generation_jobs group by status order by status',
    );
    const statuses = rows.map((row) => `${row.n} ${row.status}`).join(', ');
    return { workers, jobs, seconds, statuses, cpu };
  } finally {
    await queue.close();
    connection.disconnect();
    await db.end().catch(() => undefined);
    await deployment.close();
  }
}

/** `cpu`: the target processes' CPU use, as a percentage of one core per process. */
type Load = { rps: number; p50: number; p99: number; non2xx: number; errors: number; cpu: number };

/** POLLERS connections split over the targets, each cycling over the generateIds; rps summed, worst latency. */
async function load(
  targets: BenchProcess[],
  path: string,
  ids: string[],
  token: string,
  seconds: number,
): Promise<Load> {
  const cpuBefore = targets.reduce((sum, t) => sum + cpuSecondsOf(t.pid), 0);
  const start = performance.now();
  const results = await Promise.all(
    targets.map((target) =>
      autocannon({
        url: target.url,
        connections: Math.round(POLLERS / targets.length),
        // The load generator in its own thread, so it does not compete with this process's event loop.
        workers: 1,
        duration: seconds,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        requests: ids.map((generateId) => ({ method: 'POST', path, body: JSON.stringify({ generateId }) })),
      }),
    ),
  );
  const elapsed = (performance.now() - start) / 1000;
  const cpuUsed = targets.reduce((sum, t) => sum + cpuSecondsOf(t.pid), 0) - cpuBefore;
  return {
    cpu: (100 * cpuUsed) / elapsed / targets.length,
    rps: results.reduce((sum, r) => sum + r.requests.average, 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
  };
}

async function progressThroughput(
  deployment: Deployment,
  apis: BenchProcess[],
  token: string,
  ids: string[],
): Promise<string[]> {
  // What the plain processes answer: the real answers of this moment.
  const answers: Record<string, unknown> = {};
  for (const generateId of ids) {
    answers[generateId] = (
      await apis[0]!.call('POST', '/api/generate/task/progress', { token, body: { generateId } })
    ).body;
  }
  const plains: BenchProcess[] = [];
  for (let i = 0; i < apis.length; i++) plains.push(await deployment.plain(`plain-${i + 1}`, answers));
  const lines: string[] = [];
  for (const count of [1, 2]) {
    const api = apis.slice(0, count);
    const plain = plains.slice(0, count);
    await load(api, '/api/generate/task/progress', ids, token, WARMUP_SECONDS);
    await load(plain, '/progress', ids, token, WARMUP_SECONDS);
    const measured: { api: Load; plain: Load }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const a = await load(api, '/api/generate/task/progress', ids, token, POLL_SECONDS);
      const p = await load(plain, '/progress', ids, token, POLL_SECONDS);
      measured.push({ api: a, plain: p });
    }
    const mean = (pick: (m: { api: Load; plain: Load }) => number) =>
      measured.reduce((sum, m) => sum + pick(m), 0) / measured.length;
    const apiRps = mean((m) => m.api.rps);
    const plainRps = mean((m) => m.plain.rps);
    const last = measured.at(-1)!;
    const problems = measured.reduce(
      (sum, m) => sum + m.api.non2xx + m.api.errors + m.plain.non2xx + m.plain.errors,
      0,
    );
    const cpu = (load: Load) => pad(`${load.cpu.toFixed(0)} %`, 8);
    lines.push(
      `  ${pad(count, 9)} | ${pad(Math.round(apiRps), 12)} | ${pad(`${last.api.p50}/${last.api.p99}`, 10)} | ` +
        `${cpu(last.api)} | ${pad(Math.round(plainRps), 10)} | ${pad(`${last.plain.p50}/${last.plain.p99}`, 10)} | ` +
        `${cpu(last.plain)} | ${pad(`${((100 * apiRps) / plainRps).toFixed(0)} %`, 5)} | ${problems}`,
    );
  }
  return lines;
}

/** Interrupts a running job through one API process and polls the other until it shows the job interrupted. */
async function interruptTimes(
  interruptVia: BenchProcess,
  pollVia: BenchProcess,
  token: string,
  modelId: string,
  parameters: object,
): Promise<{ seen: number[]; answered: number[] }> {
  const seen: number[] = [];
  const answered: number[] = [];
  const progress = async (generateId: string) =>
    pollVia.ok<Progress>('POST', '/api/generate/task/progress', { token, body: { generateId } });
  for (let run = 0; run < INTERRUPT_RUNS; run++) {
    const { generateId } = await interruptVia.ok<{ generateId: string }>('POST', '/api/generate/task', {
      token,
      body: freeCreation(modelId, { ...parameters, seed: 500 + run }),
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const p = await progress(generateId);
      if (p.status === 'running' && p.progress >= 5) break;
      if (!['queued', 'running'].includes(p.status)) throw new Error(`job ended ${p.status} before the interrupt`);
      if (Date.now() > deadline) throw new Error('job never ran');
      await sleep(20);
    }
    const start = performance.now();
    const interrupted = interruptVia
      .ok('POST', '/api/generate/task/interrupt', { token, body: { generateId } })
      .then(() => answered.push(performance.now() - start));
    for (;;) {
      const p = await progress(generateId);
      if (p.status === 'interrupted') break;
      if (p.status !== 'running') throw new Error(`job ended ${p.status}, not interrupted`);
      if (performance.now() - start > 30_000) throw new Error('job not interrupted after 30 s');
    }
    seen.push(performance.now() - start);
    await interrupted;
  }
  return { seen, answered };
}

const loadAverage = () =>
  os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');
const started = performance.now();
const cpus = os.cpus();
console.log(
  `scale-out (PostgreSQL + Redis + BullMQ, real main.ts/worker.ts processes) on ${cpus.length} CPU cores ` +
    `(${cpus[0]?.model.trim() ?? 'unknown'}), Node ${process.version}; PostgreSQL, Redis, the doubles and the ` +
    `load generator share these cores too, so no number of processes gets more than ${cpus.length} cores of work ` +
    `done. Load average at start: ${loadAverage()}.`,
);

const startDoubles = (scenario: Scenario) =>
  Promise.all(
    Array.from({ length: 4 * scenario.concurrency }, () =>
      startA1111Double({ stepDelayMs: scenario.stepDelayMs, previewEvery: 1000 }),
    ),
  );

const scenarioText = (scenario: Scenario) =>
  `WORKER_CONCURRENCY=${scenario.concurrency}, ${scenario.users} users × ${scenario.jobsPerUser} jobs, running ` +
  `quota ${QUOTA} per user, submitted while the queue is paused, timed from resume to the last job settled`;

async function throughputTable(name: string, scenario: Scenario, doubles: A1111Double[]) {
  console.log(
    '  workers |  jobs | seconds |  jobs/s | speed-up vs 1 | CPU ms a job: workers · API · doubles+bench · rest ' +
      '| machine busy | outcome',
  );
  let base = 0;
  for (const workers of WORKER_COUNTS) {
    const row = await throughput(name, scenario, workers, doubles);
    const rate = row.jobs / row.seconds;
    if (workers === 1) base = rate;
    const perJob = (cpuSeconds: number) => ((1000 * cpuSeconds) / row.jobs).toFixed(1);
    const { groups, bench, rest, busyShare } = row.cpu;
    const cpu = [groups.workers!, groups.api!, bench, rest].map(perJob).join(' · ');
    console.log(
      `  ${pad(workers, 7)} | ${pad(row.jobs, 5)} | ${pad(row.seconds.toFixed(2), 7)} | ${pad(rate.toFixed(1), 7)} | ` +
        `${pad(`${(rate / base).toFixed(2)}×`, 13)} | ${cpu.padEnd(48)} | ${pad(`${(100 * busyShare).toFixed(0)} %`, 12)} | ` +
        row.statuses,
    );
  }
  console.log(
    '  (CPU: milliseconds of CPU a job cost in the worker processes, the API process, this process with the ' +
      'doubles, and the rest of the machine: PostgreSQL, Redis and anything else running)',
  );
}

const doubles: A1111Double[] = [];
let deployment: Deployment | undefined;
try {
  const zeroCost = await startDoubles(ZERO_COST);
  const gpuLike = await startDoubles(GPU_LIKE);
  doubles.push(...zeroCost, ...gpuLike);

  // 1. Generations per second.
  console.log(
    `\n1a. generations through BullMQ, zero-cost engine (${zeroCost.length} A1111 doubles, 256×256, 1 step, no delay), ` +
      `${scenarioText(ZERO_COST)}; fresh database per row:`,
  );
  await throughputTable('zero', ZERO_COST, zeroCost);
  console.log(
    `\n1b. generations through BullMQ, GPU-like engine (${gpuLike.length} A1111 doubles, 256×256, ` +
      `${GPU_LIKE.steps} steps of ${GPU_LIKE.stepDelayMs} ms: ${GPU_LIKE.steps * GPU_LIKE.stepDelayMs} ms a picture), ` +
      `${scenarioText(GPU_LIKE)}; the ideal is workers × ${GPU_LIKE.concurrency} slots ÷ the picture time:`,
  );
  await throughputTable('gpu', GPU_LIKE, gpuLike);

  // 2 and 3 share a deployment: two API processes and two workers.
  deployment = await Deployment.create(`${RUN_PREFIX}-api`, {
    NEW_USER_CREDITS: '100000',
    QUEUE_MAX_RUNNING_PER_USER: '2',
    WORKER_CONCURRENCY: '4',
  });
  const apiA = await deployment.api('api-1');
  const apiB = await deployment.api('api-2');
  const admin = await loginAdmin(apiA);
  const slow = [await startA1111Double({ stepDelayMs: 5000 }), await startA1111Double({ stepDelayMs: 5000 })];
  const stopper = await startA1111Double({ stepDelayMs: 60 });
  doubles.push(...slow, stopper);
  const slowModel = await serveModel(apiA, admin, '慢速', SLOW_CHECKPOINT, slow);
  const stopModel = await serveModel(apiA, admin, '中断', STOP_CHECKPOINT, [stopper]);
  const [builtin] = await deployment.query<{ id: string }>(
    `select id from models where engine = 'builtin' and enabled = 1 order by sort limit 1`,
  );
  await Promise.all([deployment.worker('worker-1'), deployment.worker('worker-2')]);
  const token = await registerUser(apiA);

  // 2. Two generations running on the slow doubles and two waiting behind them (the user's quota is 2).
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) {
    const { generateId } = await apiA.ok<{ generateId: string }>('POST', '/api/generate/task', {
      token,
      body: freeCreation(slowModel, { width: 256, height: 256, steps: 50, batchSize: 1, seed: i + 1 }),
    });
    ids.push(generateId);
  }
  for (let i = 0; ; i++) {
    const states = await Promise.all(
      ids.map(
        async (generateId) =>
          (await apiB.ok<Progress>('POST', '/api/generate/task/progress', { token, body: { generateId } })).status,
      ),
    );
    if (states.filter((s) => s === 'running').length === 2 && states.filter((s) => s === 'queued').length === 2) break;
    if (i > 300) throw new Error(`expected 2 running and 2 queued, got ${states.join(', ')}`);
    await sleep(100);
  }
  console.log(
    `\n2. progress with ${POLLERS} concurrent pollers (autocannon, one thread per target process, requests ` +
      `alternating over ${ids.length} generateIds: 2 running, 2 queued), mean of ${ROUNDS} alternating rounds ` +
      `of ${POLL_SECONDS} s; plain = Fastify in its own process answering the same JSON, same log level (info):`,
  );
  console.log(
    '  processes | progress rps | p50/p99 ms | CPU/proc |  plain rps | p50/p99 ms | CPU/proc | ratio | non-2xx+errors',
  );
  for (const line of await progressThroughput(deployment, [apiA, apiB], token, ids)) console.log(line);
  for (const generateId of ids) {
    await apiA.ok('POST', '/api/generate/task/interrupt', { token, body: { generateId } });
  }

  // 3. Interrupt to stop.
  console.log(
    `\n3. interrupt on API process 1 → progress on API process 2 shows 已中断 (polled back to back), ` +
      `${INTERRUPT_RUNS} runs each, 2 workers:`,
  );
  console.log('  engine                             | median ms |  min ms |  max ms | interrupt answered (median ms)');
  const variants: [string, string, object][] = [
    ['built-in engine, 512×512, 50 steps', builtin!.id, { width: 512, height: 512, steps: 50, batchSize: 1 }],
    ['A1111 double, 60 ms a step', stopModel, { width: 256, height: 256, steps: 50, batchSize: 1 }],
  ];
  for (const [label, modelId, parameters] of variants) {
    const { seen, answered } = await interruptTimes(apiA, apiB, token, modelId, parameters);
    console.log(
      `  ${label.padEnd(34)} | ${pad(median(seen).toFixed(0), 9)} | ${pad(Math.min(...seen).toFixed(0), 7)} | ` +
        `${pad(Math.max(...seen).toFixed(0), 7)} | ${median(answered).toFixed(0)}`,
    );
  }
} finally {
  await deployment?.close();
  await Promise.allSettled(doubles.map((double) => double.close()));
  const left = await dropRedisKeys(`${RUN_PREFIX}*`);
  if (left > 0) console.log(`(${left} Redis keys under ${RUN_PREFIX} were left and are now deleted)`);
}
console.log(
  `\ndone in ${((performance.now() - started) / 1000).toFixed(0)} s; load average at the end: ${loadAverage()}`,
);
