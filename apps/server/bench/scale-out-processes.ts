import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { newId } from '../src/platform/ids.js';
import { onPostgresAdmin, postgresAdminUrl, queryRows, redisUrl } from '../test/helpers/services.js';

/**
 * Processes and deployments for scale-out.bench.ts: the real API (`main.ts`) and worker (`worker.ts`) processes on
 * a fresh PostgreSQL database and a Redis key prefix of their own, and a plain Fastify process (this file run
 * directly) answering stored progress JSON, the ceiling the progress route is compared with.
 *
 * Each process writes its output to a file, not a pipe: under load an API process logs thousands of lines a
 * second, and reading them here would take CPU from the processes measured.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type Answer = { status: number; body: { code: number; msg: string; data: unknown } };

export class BenchProcess {
  port = 0;
  readonly exited: Promise<void>;
  private readonly child: ChildProcess;

  private constructor(
    readonly name: string,
    readonly logFile: string,
    script: string,
    env: Record<string, string>,
  ) {
    const out = openSync(logFile, 'a');
    // BENCH_CPU_PROF_DIR: every process writes a V8 CPU profile there when it exits (for finding hot paths).
    const profile = process.env.BENCH_CPU_PROF_DIR
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`]
      : [];
    this.child = spawn(process.execPath, [...profile, '--import', 'tsx', script], {
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', out, out],
    });
    closeSync(out);
    this.exited = new Promise((resolve) => this.child.on('exit', () => resolve()));
  }

  /** Starts `script` and waits until its output matches `ready` (the port is its first group, when it has one). */
  static async start(
    name: string,
    logDir: string,
    script: string,
    env: Record<string, string>,
    ready: RegExp,
  ): Promise<BenchProcess> {
    const proc = new BenchProcess(name, path.join(logDir, `${name}.log`), script, env);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const match = ready.exec(await proc.output());
      if (match) {
        if (match[1]) proc.port = Number(match[1]);
        return proc;
      }
      if (!proc.alive || Date.now() > deadline) {
        await proc.stop();
        throw new Error(`${name} did not start:\n${(await proc.output()).slice(-4000)}`);
      }
      await sleep(100);
    }
  }

  static api(name: string, logDir: string, env: Record<string, string>): Promise<BenchProcess> {
    return BenchProcess.start(
      name,
      logDir,
      'apps/server/src/main.ts',
      env,
      /Server listening at http:\/\/127\.0\.0\.1:(\d+)/,
    );
  }

  static worker(name: string, logDir: string, env: Record<string, string>): Promise<BenchProcess> {
    return BenchProcess.start(name, logDir, 'apps/server/src/worker.ts', env, /worker 已启动/);
  }

  /** A plain Fastify process answering `POST /progress` with the stored answer of the body's generateId. */
  static plain(name: string, logDir: string, answers: Record<string, unknown>): Promise<BenchProcess> {
    return BenchProcess.start(
      name,
      logDir,
      path.relative(root, import.meta.filename),
      { PLAIN_PROGRESS_ANSWERS: JSON.stringify(answers) },
      /Server listening at http:\/\/127\.0\.0\.1:(\d+)/,
    );
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  output(): Promise<string> {
    return readFile(this.logFile, 'utf8').catch(() => '');
  }

  /** SIGTERM, then SIGKILL when it has not exited within `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.alive) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  async call(method: string, url: string, options: { token?: string; body?: unknown } = {}): Promise<Answer> {
    const res = await fetch(`${this.url}${url}`, {
      method,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    return { status: res.status, body: (await res.json()) as Answer['body'] };
  }

  /** `call` that throws unless the envelope says code 0; its data, of the type the caller knows the route answers. */
  async ok<T>(method: string, url: string, options: { token?: string; body?: unknown } = {}): Promise<T> {
    const res = await this.call(method, url, options);
    if (res.body.code !== 0) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data as T;
  }
}

export const ADMIN_PASSWORD = 'Admin12345';
const USER_PASSWORD = 'Passw0rd!';
let mobileCounter = 0;

/**
 * One scale-out deployment: a fresh PostgreSQL database, a data directory (local files shared by its processes),
 * a Redis key prefix, and the API and worker processes started on them. `close` stops the processes, drops the
 * database, deletes every Redis key under the prefix and the directory.
 */
export class Deployment {
  readonly processes: BenchProcess[] = [];

  private constructor(
    readonly prefix: string,
    readonly database: string,
    readonly databaseUrl: string,
    readonly dataDir: string,
    readonly env: Record<string, string>,
  ) {}

  static async create(prefix: string, env: Record<string, string>): Promise<Deployment> {
    const database = `hfbench_${newId()
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')}`;
    await onPostgresAdmin((admin) => admin.query(`create database ${database}`));
    const url = new URL(postgresAdminUrl);
    url.pathname = `/${database}`;
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'huafang-scaleout-bench-'));
    return new Deployment(prefix, database, url.toString(), dataDir, {
      DATA_DIR: dataDir,
      DATABASE_URL: url.toString(),
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      ADMIN_PASSWORD,
      SHUTDOWN_GRACE_SECONDS: '0',
      RATE_LIMIT_SEND_CODE: '100000',
      RATE_LIMIT_SIGN_UP: '100000',
      RATE_LIMIT_LOGIN: '100000',
      ...env,
    });
  }

  /** The embedded mode: SQLite and local files in a data directory of its own, jobs run in the API process. */
  static async embedded(prefix: string, env: Record<string, string>): Promise<Deployment> {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'huafang-embedded-bench-'));
    return new Deployment(prefix, '', '', dataDir, {
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      SHUTDOWN_GRACE_SECONDS: '0',
      RATE_LIMIT_SEND_CODE: '100000',
      RATE_LIMIT_SIGN_UP: '100000',
      RATE_LIMIT_LOGIN: '100000',
      ...env,
    });
  }

  async api(name: string, env: Record<string, string> = {}): Promise<BenchProcess> {
    const proc = await BenchProcess.api(name, this.dataDir, { ...this.env, ...env });
    this.processes.push(proc);
    return proc;
  }

  async worker(name: string, env: Record<string, string> = {}): Promise<BenchProcess> {
    const proc = await BenchProcess.worker(name, this.dataDir, { ...this.env, ...env });
    this.processes.push(proc);
    return proc;
  }

  async plain(name: string, answers: Record<string, unknown>): Promise<BenchProcess> {
    const proc = await BenchProcess.plain(name, this.dataDir, answers);
    this.processes.push(proc);
    return proc;
  }

  /** A query on the deployment's database. */
  query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
    return queryRows<T>(this.databaseUrl, text, values);
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.processes.map((proc) => proc.stop()));
    if (this.database) {
      await onPostgresAdmin((admin) => admin.query(`drop database if exists ${this.database} with (force)`));
    }
    await dropRedisKeys(`${this.prefix}:*`);
    await rm(this.dataDir, { recursive: true, force: true });
  }
}

/** Linux clock ticks (USER_HZ), 100 on every common kernel. */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system, all threads) a process has used so far; 0 where /proc is not there. */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU seconds the whole machine has been busy and has run (busy + idle) so far, over all cores. */
export function machineCpuSeconds(): { busy: number; total: number } {
  try {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const values = ticks.slice(0, 8).map(Number);
    const total = values.reduce((sum, v) => sum + v, 0);
    const idle = values[3]! + values[4]!;
    return { busy: (total - idle) / TICKS_PER_SECOND, total: total / TICKS_PER_SECOND };
  } catch {
    return { busy: 0, total: 0 };
  }
}

/** Every Redis key matching `pattern` (a SCAN MATCH pattern); how many there were. */
export async function dropRedisKeys(pattern: string): Promise<number> {
  const redis = new Redis(redisUrl);
  let dropped = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) dropped += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return dropped;
}

export async function loginAdmin(api: BenchProcess): Promise<string> {
  const body = { account: 'admin', password: ADMIN_PASSWORD };
  return (await api.ok<{ token: string }>('POST', '/api/auth/account', { body })).token;
}

/** Registers a user as the web app does (code from the API process's log → 405 → signUp → profile); its token. */
export async function registerUser(api: BenchProcess): Promise<string> {
  mobileCounter += 1;
  const mobile = `138${`${process.pid % 10000}`.padStart(4, '0')}${`${mobileCounter}`.padStart(4, '0')}`;
  await api.ok('POST', '/api/auth/sendCode', { body: { mobile } });
  const pattern = new RegExp(`SMS code for ${mobile}: (\\d{6})`);
  let code: string | undefined;
  for (let i = 0; i < 100 && !code; i++) {
    code = pattern.exec(await api.output())?.[1];
    if (!code) await sleep(50);
  }
  if (!code) throw new Error(`no SMS code logged for ${mobile}`);
  const login = await api.call('POST', '/api/auth/mobile', { body: { mobile, code } });
  if (login.body.code !== 405) throw new Error(`expected 405, got ${JSON.stringify(login.body)}`);
  const { userId } = login.body.data as { userId: string };
  const { token } = await api.ok<{ token: string }>('POST', '/api/auth/signUp', {
    body: { userId, password: USER_PASSWORD },
  });
  await api.ok('POST', '/api/user/perfectInfo', { token, body: { nickname: '压测用户' } });
  return token;
}

/** Runs `tasks` with at most `limit` at a time; results in order. */
export async function inBatches<T>(limit: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, tasks.length) }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await tasks[index]!();
      }
    }),
  );
  return results;
}

/** Run directly: the plain route, Fastify with the API's log level, answering the stored JSON. */
async function servePlain(): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const answers = JSON.parse(process.env.PLAIN_PROGRESS_ANSWERS ?? '{}') as Record<string, unknown>;
  const app = Fastify({ logger: { level: process.env.LOG_LEVEL ?? 'info' } });
  // BENCH_PLAIN_QUIET=1: no request lines, as the progress route logs none (by default the plain route logs two).
  const quiet = process.env.BENCH_PLAIN_QUIET === '1' ? { logLevel: 'warn' as const } : {};
  app.post<{ Body: { generateId?: string } }>(
    '/progress',
    quiet,
    async (req) => answers[req.body.generateId ?? ''] ?? {},
  );
  await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      void app.close().then(() => process.exit(0));
    });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await servePlain();
