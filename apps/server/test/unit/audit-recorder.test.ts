import type { FastifyBaseLogger } from 'fastify';
import type { Insertable } from 'kysely';
import { afterEach, expect, it, vi } from 'vitest';
import type { AuditRepository } from '../../src/features/audit/audit.repository.js';
import { AuditRecorder, type AuditRecorderOptions } from '../../src/features/audit/audit-recorder.js';
import type { AuditLogTable } from '../../src/platform/db/schema.js';

type Row = Insertable<AuditLogTable>;

/**
 * A repository in memory whose writes can be made to fail or to hang, and a log that keeps its errors: the
 * recorder is tested without a database, and without sleeping.
 */
function setUp(options: Partial<AuditRecorderOptions> = {}) {
  const rows: Row[] = [];
  const batches: number[] = [];
  const state = { failing: false, gate: null as Promise<void> | null, actorLookups: 0, attempts: 0, delayMs: 0 };
  const users = new Map([
    ['u1', { id: 'u1', mobile: '13812345678', is_admin: 0 }],
    ['a1', { id: 'a1', mobile: null, is_admin: 1 }],
  ]);
  const repo = {
    async actors(ids: string[]) {
      state.actorLookups++;
      return ids.flatMap((id) => (users.has(id) ? [users.get(id)!] : []));
    },
    async insertBatch(batch: Row[]) {
      state.attempts++;
      if (state.gate) await state.gate;
      if (state.delayMs) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
      if (state.failing) throw new Error('database unavailable');
      batches.push(batch.length);
      rows.push(...batch);
    },
  } as unknown as AuditRepository;
  const errors: string[] = [];
  const log = { error: (_obj: unknown, msg: string) => errors.push(msg) } as unknown as FastifyBaseLogger;
  const recorder = new AuditRecorder(repo, log, { intervalMs: 200, batchSize: 100, ...options });
  return { recorder, rows, batches, state, errors };
}

const login = (userId: string | null, n = 0) =>
  ({ action: 'auth.login', userId, origin: { ip: `10.0.0.${n}`, apiKeyId: null }, detail: { n } }) as const;

afterEach(() => {
  vi.useRealTimers();
});

it('queues an entry without touching the database, and flush writes it with the masked mobile and role', async () => {
  const { recorder, rows, state } = setUp();
  recorder.record(login('u1', 1));
  recorder.record({ action: 'admin.request', userId: 'a1', role: 'admin', target: { type: 'user', id: 'u1' } });
  recorder.record({ action: 'auth.login_failed', userId: null, mobile: '13987654321' });
  expect(state.actorLookups).toBe(0);
  expect(recorder.stats()).toEqual({ pending: 3, written: 0, dropped: 0 });

  await recorder.flush();
  expect(recorder.stats()).toEqual({ pending: 0, written: 3, dropped: 0 });
  expect(rows).toMatchObject([
    {
      action: 'auth.login',
      actor_user_id: 'u1',
      actor_mobile_masked: '138****5678',
      actor_role: 'user',
      ip: '10.0.0.1',
      detail: '{"n":1}',
    },
    { action: 'admin.request', actor_user_id: 'a1', actor_mobile_masked: null, actor_role: 'admin', target_id: 'u1' },
    { action: 'auth.login_failed', actor_user_id: null, actor_mobile_masked: '139****4321', actor_role: 'system' },
  ]);
  // The time is the recording's, not the write's.
  for (const row of rows) expect(row.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

it('does not make the recording wait for a write that hangs', async () => {
  const { recorder, rows, state } = setUp();
  let release = () => {};
  state.gate = new Promise((resolve) => {
    release = resolve;
  });
  recorder.record(login('u1', 1));
  const writing = recorder.flush();
  await new Promise(setImmediate);
  expect(recorder.stats().pending).toBe(0);
  // The database is stuck on the first batch: recording goes on all the same, synchronously.
  for (let i = 2; i <= 5; i++) expect(recorder.record(login('u1', i))).toBeUndefined();
  expect(recorder.stats().pending).toBe(4);
  release();
  await writing;
  await recorder.flush();
  expect(rows.map((row) => JSON.parse(row.detail as string).n)).toEqual([1, 2, 3, 4, 5]);
});

it('writes a batch on its own a while after its first entry, and at once when it is full', async () => {
  vi.useFakeTimers();
  const { recorder, batches } = setUp({ intervalMs: 200, batchSize: 3 });
  recorder.record(login('u1'));
  await vi.advanceTimersByTimeAsync(199);
  expect(batches).toEqual([]);
  await vi.advanceTimersByTimeAsync(1);
  expect(batches).toEqual([1]);

  for (let i = 0; i < 3; i++) recorder.record(login('u1', i));
  await vi.advanceTimersByTimeAsync(0);
  expect(batches).toEqual([1, 3]);
});

it('writes in batches of batchSize rows, looking the actors up once per batch', async () => {
  const { recorder, batches, state } = setUp({ batchSize: 4 });
  for (let i = 0; i < 10; i++) recorder.record(login(i % 2 ? 'u1' : 'a1', i));
  await recorder.flush();
  expect(batches).toEqual([4, 4, 2]);
  expect(state.actorLookups).toBe(3);
  expect(recorder.stats()).toEqual({ pending: 0, written: 10, dropped: 0 });
});

it('keeps the entries a failed write refused, tries again after a back-off, and loses none', async () => {
  vi.useFakeTimers();
  const { recorder, rows, state, errors } = setUp();
  state.failing = true;
  recorder.record(login('u1', 1));
  recorder.record(login('u1', 2));
  await recorder.flush();
  expect(recorder.stats()).toEqual({ pending: 2, written: 0, dropped: 0 });
  expect(errors).toEqual(['audit entries not written; trying again later']);

  // Entries recorded while the database is away wait behind the refused ones.
  recorder.record(login('u1', 3));
  state.failing = false;
  // The retry comes by itself after the first back-off (1 s).
  await vi.advanceTimersByTimeAsync(1000);
  expect(rows.map((row) => JSON.parse(row.detail as string).n)).toEqual([1, 2, 3]);
  expect(recorder.stats()).toEqual({ pending: 0, written: 3, dropped: 0 });
});

it('backs off while the database is away, however many entries keep coming', async () => {
  vi.useFakeTimers();
  const { recorder, state } = setUp();
  state.failing = true;
  // Each refusal takes a while, as a database timing out does: entries keep arriving meanwhile.
  state.delayMs = 100;
  for (let t = 0; t < 3000; t += 50) {
    recorder.record(login('u1'));
    await vi.advanceTimersByTimeAsync(50);
  }
  // Tries at 200 ms (the first batch), then 1 s and 2 s after each refusal: the third is still to come.
  expect(state.attempts).toBe(2);
  expect(recorder.stats()).toMatchObject({ pending: 60, dropped: 0 });
  state.failing = false;
  await vi.advanceTimersByTimeAsync(2000);
  expect(recorder.stats()).toEqual({ pending: 0, written: 60, dropped: 0 });
});

it('drops an entry the database refused maxAttempts times, and counts it', async () => {
  const { recorder, state, errors } = setUp({ maxAttempts: 3 });
  state.failing = true;
  recorder.record(login('u1'));
  for (let i = 0; i < 3; i++) await recorder.flush();
  expect(recorder.stats()).toEqual({ pending: 0, written: 0, dropped: 1 });
  expect(errors).toContain('audit entries dropped after retries');
  recorder.record(login('u1'));
  state.failing = false;
  await recorder.flush();
  expect(recorder.stats()).toEqual({ pending: 0, written: 1, dropped: 1 });
});

it('keeps at most maxPending entries while the database is away: the oldest go, counted', async () => {
  const { recorder, rows, state, errors } = setUp({ maxPending: 3, batchSize: 100 });
  state.failing = true;
  for (let i = 1; i <= 5; i++) recorder.record(login('u1', i));
  expect(recorder.stats()).toEqual({ pending: 3, written: 0, dropped: 2 });
  expect(errors).toContain('audit entries dropped: too many waiting while the database refuses them');
  state.failing = false;
  await recorder.flush();
  expect(rows.map((row) => JSON.parse(row.detail as string).n)).toEqual([3, 4, 5]);
  expect(recorder.stats()).toEqual({ pending: 0, written: 3, dropped: 2 });
});

it('cuts values to the widths of their columns, so one long value cannot fail a whole batch', async () => {
  const { recorder, rows } = setUp();
  recorder.record({
    action: 'admin.request',
    userId: 'a1',
    origin: { ip: `203.0.113.1${'9'.repeat(100)}`, apiKeyId: null },
    target: { type: 'user', id: `x\u0000${'y'.repeat(100)}` },
  });
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  expect(() => recorder.record({ action: 'work.publish', userId: 'u1', detail: cycle })).not.toThrow();
  await recorder.flush();
  expect(rows[0]!.ip).toHaveLength(64);
  expect(rows[0]!.target_id).toBe(`x${'y'.repeat(63)}`);
  expect(rows[1]!.detail).toBe('{"unserializable":true}');
});

it('writes what is queued on close, and drops (and counts) what comes after', async () => {
  const { recorder, rows, errors } = setUp();
  recorder.record(login('u1', 1));
  await recorder.close();
  expect(rows).toHaveLength(1);
  recorder.record(login('u1', 2));
  expect(recorder.stats()).toEqual({ pending: 0, written: 1, dropped: 1 });
  expect(errors).toEqual(['audit entry recorded after shutdown']);
});

it('drops on close what the database still refuses, counted', async () => {
  const { recorder, state } = setUp();
  state.failing = true;
  recorder.record(login('u1'));
  recorder.record(login('u1'));
  await recorder.close();
  expect(recorder.stats()).toEqual({ pending: 0, written: 0, dropped: 2 });
});
