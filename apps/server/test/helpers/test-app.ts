import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { LoginResult } from '@huafang/contracts';
import pg from 'pg';
import { type BuiltApp, buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { newId } from '../../src/platform/ids.js';
import { postgresAdminUrl } from './services.js';

export const TEST_DB = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
export const ADMIN = { account: 'admin', password: 'Admin12345' };

type InjectResult = { status: number; body: { code: number; msg: string; data: any } };

export type TestApp = BuiltApp & {
  config: Config;
  logLines: string[];
  /** Moves the clock of the SMS code rules forward. */
  advanceClock(ms: number): void;
  /** The newest code the console SMS provider logged for this mobile. */
  smsCode(mobile: string): string;
  call(method: string, url: string, options?: { token?: string; body?: unknown }): Promise<InjectResult>;
  /** Stops the app as a shutdown does and starts a new one on the same database and files. */
  restart(): Promise<TestApp>;
  close(): Promise<void>;
};

/** A fresh app on a fresh database (a temp SQLite file or a new PostgreSQL database) per test file. */
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'huafang-test-'));
  let dropDatabase = async () => {};
  let database: Config['database'] = { kind: 'sqlite', file: path.join(dataDir, 'test.db') };
  if (TEST_DB === 'postgres') {
    const name = `huafang_test_${newId()
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')}`;
    const admin = new pg.Client({ connectionString: postgresAdminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(postgresAdminUrl);
    url.pathname = `/${name}`;
    database = { kind: 'postgres', url: url.toString() };
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: postgresAdminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
  }

  const config: Config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      ADMIN_ACCOUNT: ADMIN.account,
      ADMIN_PASSWORD: ADMIN.password,
    }),
    database,
    rateLimit: { login: 1000, sendCode: 1000, signUp: 1000 },
    ...overrides,
  };
  return openTestApp(config, async () => {
    await dropDatabase();
    await rm(dataDir, { recursive: true, force: true });
  });
}

/** Builds the app on a prepared config; `restart` closes it and opens the same database and files again. */
async function openTestApp(config: Config, cleanup: () => Promise<void>): Promise<TestApp> {
  const logLines: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      logLines.push(...chunk.toString().split('\n').filter(Boolean));
      cb();
    },
  });
  let offset = 0;
  const built = await buildApp(config, { logStream, clock: () => Date.now() + offset });

  return {
    ...built,
    config,
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
      await built.app.close();
      return openTestApp(config, cleanup);
    },
    async close() {
      await built.app.close();
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
