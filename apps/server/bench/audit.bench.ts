import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { AuditRepository } from '../src/features/audit/audit.repository.js';
import { AuditRecorder } from '../src/features/audit/audit-recorder.js';
import { createTestApp, registerUser, TEST_DB } from '../test/helpers/test-app.js';
import { seedWorks } from '../test/works/work-fixtures.js';

/**
 * Figures for the audit trail, printed, never asserted (run with TEST_DB=sqlite or TEST_DB=postgres):
 * 1. a recorded request (POST /api/works/publish, one work.publish entry each) under load: requests/s, median and
 *    p99 latency with recording off, on, and on over a database that takes 200 ms per audit insert — the request
 *    never waits for its entry (medians of three rounds);
 * 2. the recorder's batch writes: entries/s written, and the cost of one `record` call.
 */
const CONNECTIONS = 10;
const SECONDS = 5;
/** Each variant runs this many times, in turn with the others; the medians are printed. */
const ROUNDS = 3;
const SLOW_INSERT_MS = 200;
const WRITE_ENTRIES = 100_000;
/** Below the recorder's 10,000 waiting entries, so nothing is dropped while the next chunk is recorded. */
const CHUNK = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The default log level (info, a line per request) as in production; the lines kept in memory are dropped as they come.
const app = await createTestApp();
const dropLogs = setInterval(() => {
  app.logLines.length = 0;
}, 500);
const recorder = app.services.audit.recorder;
const realRecord = AuditRecorder.prototype.record;
const realInsert = AuditRepository.prototype.insertBatch;
try {
  const user = await registerUser(app);
  const [workId] = await seedWorks(app, user.userId, [{ prompt: 'audit bench' }]);
  const address = await app.app.listen({ port: 0, host: '127.0.0.1' });
  const load = () =>
    autocannon({
      url: `${address}/api/works/publish`,
      method: 'POST',
      connections: CONNECTIONS,
      // The load generator in its own thread, so it does not compete with the server's event loop.
      workers: 1,
      duration: SECONDS,
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: workId, public: true }),
    });

  console.log(
    `audit on ${TEST_DB}: POST /api/works/publish (records work.publish), ${CONNECTIONS} connections, ` +
      `${ROUNDS} rounds of ${SECONDS} s per variant (medians)`,
  );
  await load(); // warm-up, not printed
  await recorder.flush();
  const slowInsert: typeof realInsert = async function (this: AuditRepository, batch) {
    await sleep(SLOW_INSERT_MS);
    return realInsert.call(this, batch);
  };
  const variants: { label: string; record: typeof realRecord; insert: typeof realInsert }[] = [
    { label: 'recording off', record: () => {}, insert: realInsert },
    { label: 'recording on', record: realRecord, insert: realInsert },
    { label: `on, ${SLOW_INSERT_MS} ms per audit insert`, record: realRecord, insert: slowInsert },
  ];
  type Run = {
    rps: number;
    p50: number;
    p99: number;
    non2xx: number;
    written: number;
    peak: number;
    dropped: number;
    drainMs: number;
  };
  const runs = new Map<string, Run[]>(variants.map((v) => [v.label, []]));
  // Rounds in turn, so a machine busy with something else weighs on every variant alike.
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of variants) {
      AuditRecorder.prototype.record = variant.record;
      AuditRepository.prototype.insertBatch = variant.insert;
      const before = recorder.stats();
      let peak = 0;
      const watch = setInterval(() => {
        peak = Math.max(peak, recorder.stats().pending);
      }, 20);
      const result = await load();
      clearInterval(watch);
      const drainStart = performance.now();
      await recorder.flush();
      const drainMs = performance.now() - drainStart;
      const after = recorder.stats();
      runs.get(variant.label)!.push({
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        non2xx: result.non2xx,
        written: after.written - before.written,
        peak,
        dropped: after.dropped - before.dropped,
        drainMs,
      });
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  for (const { label } of variants) {
    const of = runs.get(label)!;
    const m = (key: keyof Run) => median(of.map((run) => run[key]));
    console.log(
      `  ${label}: ${Math.round(m('rps'))} requests/s · median ${m('p50')} ms · p99 ${m('p99')} ms · ` +
        `${of.reduce((n, run) => n + run.non2xx, 0)} non-2xx · per run: ${Math.round(m('written'))} entries written, ` +
        `at most ${m('peak')} waiting, ${of.reduce((n, run) => n + run.dropped, 0)} dropped, ` +
        `the last written ${m('drainMs').toFixed(0)} ms after the load`,
    );
  }
  AuditRepository.prototype.insertBatch = realInsert;
} finally {
  AuditRecorder.prototype.record = realRecord;
  AuditRepository.prototype.insertBatch = realInsert;
}

try {
  // 2. The recorder alone: chunks of entries recorded at once, then written in its batches (100 rows a statement).
  const written = recorder.stats().written;
  let recordMs = 0;
  const start = performance.now();
  for (let done = 0; done < WRITE_ENTRIES; done += CHUNK) {
    const recordStart = performance.now();
    for (let i = 0; i < CHUNK; i++) {
      recorder.record({
        action: 'generation.succeeded',
        userId: null,
        origin: { ip: '203.0.113.7', apiKeyId: null },
        target: { type: 'generation', id: `g${done + i}` },
        detail: { prompt: 'ink wash mountains, mist, pine trees', backend: '内置演示引擎', produced: 1 },
      });
    }
    recordMs += performance.now() - recordStart;
    await recorder.flush();
  }
  const seconds = (performance.now() - start) / 1000;
  const stats = recorder.stats();
  console.log(
    `batch writes: ${stats.written - written} entries in ${seconds.toFixed(2)} s → ${Math.round(
      (stats.written - written) / seconds,
    )} entries/s (${stats.dropped} dropped) · record() ${((recordMs * 1000) / WRITE_ENTRIES).toFixed(1)} µs a call`,
  );
} finally {
  clearInterval(dropLogs);
  await app.close();
}
