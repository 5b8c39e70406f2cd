import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, onTestFailed } from 'vitest';

/** The repository root, found from this file so the suite runs from any working directory. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-output', 'screenshots');

export const ADMIN = { account: 'admin', password: 'Admin12345' } as const;
export const SMS_RESEND_SECONDS = 2;

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

const SMS_LINE = /SMS code for (\d{11}): (\d{6})/;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface TestServer {
  baseUrl: string;
  /** Every stdout and stderr line of the server so far. */
  logs: string[];
  /** The newest code sent to `mobile` after this call started; call it before triggering the send. */
  waitForSmsCode(mobile: string, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

/** Starts the real server (`node --import tsx apps/server/src/main.ts`) on a free port with a fresh data dir. */
export async function startServer(): Promise<TestServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'huafang-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const logs: string[] = [];

  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_ACCOUNT: ADMIN.account,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'info',
      // One code per mobile every 2 s instead of 60 s, so journeys that need a second code do not idle.
      SMS_RESEND_SECONDS: String(SMS_RESEND_SECONDS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  for (const stream of [child.stdout, child.stderr]) {
    let pending = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      logs.push(...lines);
    });
  }

  let exited = false;
  const exitedPromise = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`server exited during start-up:\n${logs.slice(-30).join('\n')}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy in 60 s:\n${logs.slice(-30).join('\n')}`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      const body = (await res.json()) as { code?: number };
      if (body.code === 0) break;
    } catch {
      // Not listening yet.
    }
    await sleep(200);
  }

  return {
    baseUrl,
    logs,
    async waitForSmsCode(mobile, timeoutMs = 15_000) {
      const from = logs.length;
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const codes = logs
          .slice(from)
          .map((line) => SMS_LINE.exec(line))
          .filter((match): match is RegExpExecArray => match !== null && match[1] === mobile)
          .map((match) => match[2] as string);
        const newest = codes.at(-1);
        if (newest) return newest;
        await sleep(100);
      }
      throw new Error(`no SMS code for ${mobile} within ${timeoutMs} ms`);
    },
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exitedPromise;
        clearTimeout(killer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export interface Journey {
  readonly server: TestServer;
  readonly browser: Browser;
}

/** One server and one browser for a test file: started before its first test, stopped after its last. */
export function setupJourney(): Journey {
  let server: TestServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the journey has not started: read it inside hooks and tests');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get browser() {
      return started(browser);
    },
  };
}

/** The screens the journeys run on: a desktop, a tablet held upright and a phone (touch, mobile viewport). */
export const SCREENS = {
  desktop: { viewport: { width: 1440, height: 900 } },
  tablet: { viewport: { width: 768, height: 1024 }, hasTouch: true },
  phone: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
} as const;
export type ScreenName = keyof typeof SCREENS;

export async function newPage(
  browser: Browser,
  screen: ScreenName = 'desktop',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ...SCREENS[screen], locale: 'zh-CN' });
  const page = await context.newPage();
  // A failed journey leaves a picture of the page as it was, for whoever reads the CI log.
  onTestFailed(async ({ task }) => {
    if (page.isClosed()) return;
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const name = `failed-${task.name.replace(/[^\p{L}\p{N}]+/gu, '-').slice(0, 60)}.png`;
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, name) }).catch(() => undefined);
    console.error(`[e2e] failure screenshot: ${path.join(SCREENSHOT_DIR, name)} at ${page.url()}`);
  });
  return { context, page };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Let dialog and tab transitions settle so the picture shows the screen as the user sees it at rest.
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

/** A mobile nobody has used in this run. */
export function randomMobile(): string {
  return `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
}

export function randomSuffix(length = 6): string {
  return Math.random()
    .toString(36)
    .slice(2, 2 + length)
    .padEnd(length, '0');
}

export interface ApiAnswer<T = unknown> {
  status: number;
  code: number;
  msg: string;
  data: T;
}

/** Calls the API directly, as a second client would, without the web app's request layer. */
export async function api<T = unknown>(
  server: TestServer,
  method: 'GET' | 'POST' | 'PUT',
  apiPath: string,
  options: { body?: unknown; token?: string } = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  const res = await fetch(`${server.baseUrl}${apiPath}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const body = (await res.json()) as { code: number; msg: string; data: T };
  return { status: res.status, ...body };
}

function expectOk<T>(answer: ApiAnswer<T>, what: string): T {
  if (answer.code !== 0) throw new Error(`${what} failed: HTTP ${answer.status} ${JSON.stringify(answer)}`);
  return answer.data;
}

export async function adminToken(server: TestServer): Promise<string> {
  const answer = await api<{ token: string }>(server, 'POST', '/api/auth/account', { body: ADMIN });
  return expectOk(answer, 'admin login').token;
}

/** A fresh invite code of type 01 (guidance) made through the admin API. */
export async function createInviteCode(server: TestServer): Promise<string> {
  const token = await adminToken(server);
  const answer = await api<{ code: string }>(server, 'POST', '/api/admin/invite/codes', {
    token,
    body: { codeType: '01', maxUses: 5 },
  });
  return expectOk(answer, 'create invite code').code;
}

export interface RegisteredUser {
  mobile: string;
  account: string;
  password: string;
  nickname: string;
  token: string;
  /** When the registration code went to `mobile`; see waitForSmsResend. */
  codeSentAt: number;
}

/** Registers a user the way the app does (sendCode → mobile 405 → signUp → perfectInfo), without a browser. */
export async function registerUserViaApi(
  server: TestServer,
  options: { inviteCode?: string } = {},
): Promise<RegisteredUser> {
  const mobile = randomMobile();
  const account = `e2e${randomSuffix(8)}`;
  const password = `Pass${randomSuffix(6)}1`;
  const nickname = `测试${randomSuffix(4)}`;

  const codePromise = server.waitForSmsCode(mobile);
  const codeSentAt = Date.now();
  expectOk(await api(server, 'POST', '/api/auth/sendCode', { body: { mobile, scene: 'login' } }), 'sendCode');
  const code = await codePromise;
  const login = await api<{ userId: string }>(server, 'POST', '/api/auth/mobile', { body: { mobile, code } });
  if (login.code !== 405) throw new Error(`expected 405 for a new mobile, got ${JSON.stringify(login)}`);
  const signUp = expectOk(
    await api<{ token: string }>(server, 'POST', '/api/auth/signUp', {
      body: { userId: login.data.userId, password, account },
    }),
    'signUp',
  );
  expectOk(
    await api(server, 'POST', '/api/user/perfectInfo', {
      token: signUp.token,
      body: { nickname, ...(options.inviteCode ? { inviteCode: options.inviteCode } : {}) },
    }),
    'perfectInfo',
  );
  return { mobile, account, password, nickname, token: signUp.token, codeSentAt };
}

/** A registered user who accepted a fresh invite, so a login lands on /draw. */
export async function registerInvitedUser(server: TestServer): Promise<RegisteredUser> {
  return registerUserViaApi(server, { inviteCode: await createInviteCode(server) });
}

/** Waits until the server sends `user`'s mobile another code (one per SMS_RESEND_SECONDS). */
export async function waitForSmsResend(user: RegisteredUser): Promise<void> {
  await sleep(Math.max(0, user.codeSentAt + (SMS_RESEND_SECONDS + 1) * 1000 - Date.now()));
}
