import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { LoginResult } from '@huafang/contracts';
import { pino } from 'pino';
import { type BuiltApp, buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { newId } from '../../src/platform/ids.js';
import { startWorker, type WorkerProcess } from '../../src/worker/worker-process.js';
import { startS3Server, type TestS3Server } from './s3-server.js';
import { createTestDatabase, dropRedisKeys, POSTGRES_TEMPLATE_ENV, redisUrl, SQLITE_TEMPLATE_ENV } from './services.js';

/**
 * The configuration the server suites run in: embedded on SQLite or PostgreSQL, or scale-out (PostgreSQL,
 * Redis and BullMQ, files in S3 served by s3rver, with an API app and a worker in the test process, each test
 * app on its own Redis key prefix).
 */
export const SCALE_OUT = process.env.TEST_MODE === 'scaleout';
export const TEST_DB = process.env.TEST_DB === 'postgres' || SCALE_OUT ? 'postgres' : 'sqlite';
export const ADMIN = { account: 'admin', password: 'Admin12345' };

type InjectResult = { status: number; body: { code: number; msg: string; data: any } };

export type TestApp = BuiltApp & {
  config: Config;
  /** Scale-out: the worker process beside the API app (its own services, e.g. its audit recorder). */
  worker: WorkerProcess | undefined;
  logLines: string[];
  /** Moves the clock of the SMS code rules forward. */
  advanceClock(ms: number): void;
  /** The newest code the console SMS provider logged for this mobile. */
  smsCode(mobile: string): string;
  call(method: string, url: string, options?: { token?: string; body?: unknown }): Promise<InjectResult>;
  /** Stops the app as a shutdown does and starts a new one on the same database and files. */
  restart(): Promise<TestApp>;
  /**
   * Another API process of the same deployment: a second app on this one's config (database, files, Redis), with
   * `overrides`. Closing it leaves the database and files to this app; close it first.
   */
  sibling(overrides?: Partial<Config>): Promise<TestApp>;
  close(): Promise<void>;
};

/**
 * A fresh app on a fresh database (a temp SQLite file or a new PostgreSQL database) per test file: a copy of the
 * run's migrated and seeded template when the suites' global setup made one (template-database.ts).
 */
/**
 * Whether a log line shows `code` as a number of its own: the six digits can also turn up inside a longer number,
 * such as the decimals of a request's responseTime, which says nothing about the code.
 */
export function mentionsCode(line: string, code: string): boolean {
  return new RegExp(`(?<![\\d.])${code}(?!\\d)`).test(line);
}

export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'huafang-test-'));
  let dropDatabase = async () => {};
  let database: Config['database'] = { kind: 'sqlite', file: path.join(dataDir, 'test.db') };
  const sqliteTemplate = process.env[SQLITE_TEMPLATE_ENV];
  if (TEST_DB === 'sqlite' && sqliteTemplate) await copyFile(sqliteTemplate, database.file);
  if (TEST_DB === 'postgres') {
    const created = await createTestDatabase('huafang_test', process.env[POSTGRES_TEMPLATE_ENV]);
    database = { kind: 'postgres', url: created.url };
    dropDatabase = created.drop;
  }

  // Scale-out keeps files in S3 (a real S3-compatible server, s3rver), unless the test brings its own storage.
  const s3: TestS3Server | undefined = SCALE_OUT && !overrides.storage ? await startS3Server() : undefined;
  const config: Config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      ADMIN_ACCOUNT: ADMIN.account,
      ADMIN_PASSWORD: ADMIN.password,
    }),
    database,
    rateLimit: { login: 1000, sendCode: 1000, signUp: 1000 },
    // Test files share one Redis: each app keeps its keys and queues under a prefix of its own.
    redisPrefix: `hftest-${newId().replace(/[^a-z0-9]/gi, '')}`,
    ...(SCALE_OUT
      ? {
          redisUrl,
          worker: { concurrency: 4, healthPort: undefined, lockMs: 5000 },
          ...(s3 ? { storage: s3.storageConfig } : {}),
        }
      : {}),
    ...overrides,
  };
  return openTestApp(config, { withWorker: true }, async () => {
    if (config.redisUrl) await dropRedisKeys(config.redisUrl, config.redisPrefix);
    await s3?.close();
    await dropDatabase();
    await rm(dataDir, { recursive: true, force: true });
  });
}

/** Builds the app on a prepared config; `restart` closes it and opens the same database and files again. */
async function openTestApp(
  config: Config,
  { withWorker }: { withWorker: boolean },
  cleanup: () => Promise<void>,
): Promise<TestApp> {
  const logLines: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      logLines.push(...chunk.toString().split('\n').filter(Boolean));
      cb();
    },
  });
  let offset = 0;
  const built = await buildApp(config, { logStream, clock: () => Date.now() + offset });
  // Scale-out: a worker beside the API app, sharing its storage object so tests that watch storage see its writes.
  const worker =
    config.redisUrl && withWorker
      ? await startWorker(config, { log: pino({ level: config.logLevel }, logStream), storage: built.services.storage })
      : undefined;
  const stop = async () => {
    await worker?.close();
    await built.app.close();
  };

  return {
    ...built,
    config,
    worker,
    logLines,
    advanceClock(ms) {
      offset += ms;
    },
    smsCode(mobile) {
      const pattern = new RegExp(`SMS code for ${mobile}: (\\d{6})`);
      for (let i = logLines.length - 1; i >= 0; i--) {
        const match = pattern.exec(logLines[i] ?? '');
        if (match?.[1]) return match[1];
      }
      throw new Error(`no SMS code logged for ${mobile}`);
    },
    async call(method, url, options = {}) {
      const res = await built.app.inject({
        method: method as 'GET',
        url,
        headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
        ...(options.body === undefined ? {} : { payload: options.body as object }),
      });
      return { status: res.statusCode, body: res.json() };
    },
    async restart() {
      await stop();
      return openTestApp(config, { withWorker }, cleanup);
    },
    sibling(overrides = {}) {
      return openTestApp({ ...config, ...overrides }, { withWorker: false }, async () => {});
    },
    async close() {
      await stop();
      await cleanup();
    },
  };
}

let mobileCounter = 0;
/** A mobile unique across test files and runs. */
export function uniqueMobile(): string {
  mobileCounter += 1;
  const tail = `${process.pid % 10000}`.padStart(4, '0') + `${mobileCounter}`.padStart(4, '0');
  return `139${tail}`;
}

export const PASSWORD = 'Passw0rd!';

export type TestUser = { userId: string; token: string; mobile: string; password: string; account: string };

/** Registers a user the way the web app does: code → 405 → signUp → profile. */
export async function registerUser(
  app: TestApp,
  options: { nickname?: string; inviteCode?: string; account?: string } = {},
): Promise<TestUser> {
  const mobile = uniqueMobile();
  const sent = await app.call('POST', '/api/auth/sendCode', { body: { mobile } });
  if (sent.body.code !== 0) throw new Error(`sendCode failed: ${sent.body.msg}`);
  const login = await app.call('POST', '/api/auth/mobile', { body: { mobile, code: app.smsCode(mobile) } });
  if (login.body.code !== 405) throw new Error(`expected 405, got ${JSON.stringify(login.body)}`);
  const signUp = await app.call('POST', '/api/auth/signUp', {
    body: {
      userId: login.body.data.userId,
      password: PASSWORD,
      ...(options.account ? { account: options.account } : {}),
    },
  });
  if (signUp.body.code !== 0) throw new Error(`signUp failed: ${signUp.body.msg}`);
  const token: string = signUp.body.data.token;
  const info = await app.call('POST', '/api/user/perfectInfo', {
    token,
    body: {
      nickname: options.nickname ?? '测试用户',
      ...(options.inviteCode ? { inviteCode: options.inviteCode } : {}),
    },
  });
  if (info.body.code !== 0) throw new Error(`perfectInfo failed: ${info.body.msg}`);
  const me = await app.call('GET', '/api/user/currentUser', { token });
  return { userId: signUp.body.data.userId, token, mobile, password: PASSWORD, account: me.body.data.account };
}

export async function loginAdmin(app: TestApp): Promise<string> {
  const res = await app.call('POST', '/api/auth/account', { body: ADMIN });
  if (res.body.code !== 0) throw new Error(`admin login failed: ${res.body.msg}`);
  return (res.body.data as LoginResult).token;
}
