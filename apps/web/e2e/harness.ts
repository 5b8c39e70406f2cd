import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Download, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, onTestFailed } from 'vitest';
import { CHROMIUM_ARGS } from './lanes';
import { ADMIN, REPO_ROOT, SMS_RESEND_SECONDS, serverAt, startServer, type TestServer } from './server';
import { logInToDraw, sidewaysOverflow, widestSidewaysOffender } from './ui';

export { ADMIN, REPO_ROOT, SMS_RESEND_SECONDS, startServer, type TestServer };
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-output', 'screenshots');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/** This worker's lane (lanes.ts): one per worker, so the files of a lane run one after another. */
function lane() {
  const lanes = inject('e2eLanes');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  const found = lanes[(worker - 1) % lanes.length];
  if (!found) throw new Error('no e2e lane: run the journeys through the e2e project (its global setup starts them)');
  return found;
}

export interface Journey {
  readonly server: TestServer;
  readonly browser: Browser;
}

export interface JourneyOptions {
  /**
   * A server of this file's own, for a file that changes what every user of a server sees (a global setting, the
   * task tree, backends, the public gallery it counts) or needs its own environment: `true`, or a function giving
   * the variables to start it with (called in the hook, after the file's earlier hooks started what they name). Without it the file shares its lane's server, and keeps to its own users and data.
   */
  ownServer?: boolean | (() => Record<string, string>);
}

/**
 * A server and a browser for a test file, from before its first test to after its last: the lane's browser always,
 * the lane's server unless `ownServer` asks for one of its own.
 */
export function setupJourney(options: JourneyOptions = {}): Journey {
  let server: TestServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    const { server: shared, browserEndpoint } = lane();
    const { ownServer } = options;
    server = ownServer ? await startServer(ownServer === true ? {} : ownServer()) : serverAt(shared);
    browser = await chromium.connect(browserEndpoint);
  });

  afterAll(async () => {
    // Closes this file's contexts and leaves the lane's browser running for the next file.
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

/**
 * The text of a finished download. The lane's browser is reached over a connection, so the file is copied here
 * (saveAs) rather than read where the browser put it.
 */
export async function downloadedText(download: Download): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'huafang-download-'));
  try {
    const file = path.join(dir, download.suggestedFilename());
    await download.saveAs(file);
    return readFileSync(file, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The screens the journeys run on: a desktop, a tablet held upright, a phone (touch, mobile viewport) and WeChat on it. */
export const SCREENS = {
  desktop: { viewport: { width: 1440, height: 900 } },
  tablet: { viewport: { width: 768, height: 1024 }, hasTouch: true },
  phone: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
  /** A phone inside WeChat's own browser, which names itself MicroMessenger. */
  wechat: {
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.50(0x1800323c) NetType/WIFI Language/zh_CN',
  },
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

/** Screens up to this wide are phones: every picture of one also proves the page does not scroll sideways. */
const PHONE_MAX_WIDTH = 430;

/**
 * Saves a picture of the page as `name`. On a phone-size screen the journey fails if the page scrolls sideways
 * there, naming the element that reaches furthest past the edge; the picture is saved first, to look at.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Let dialog and tab transitions settle so the picture shows the screen as the user sees it at rest.
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
  const width = page.viewportSize()?.width ?? 0;
  if (width > PHONE_MAX_WIDTH) return;
  const overflow = await sidewaysOverflow(page);
  if (overflow <= 0) return;
  const offender = await widestSidewaysOffender(page);
  const cause = offender
    ? `the widest element is ${offender.element}, its right edge at ${offender.right} px`
    : 'no element reaches past the edge by itself';
  throw new Error(`screenshot ${name}: the page scrolls sideways by ${overflow} px at ${width} px; ${cause}`);
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

/**
 * A fresh page of `screen` on which `who` (an admin, or a user who accepted an invite) has logged in from the home
 * page: on /draw, with 登录成功 gone.
 */
export async function loggedInOnDraw(
  journey: Journey,
  who: { account: string; password: string },
  screen: ScreenName = 'desktop',
): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await newPage(journey.browser, screen);
  await logInToDraw(opened.page, journey.server.baseUrl, who.account, who.password);
  return opened;
}

/** A new user who accepted an invite, logged in on a fresh page of `screen` (see loggedInOnDraw). */
export async function invitedUserOnDraw(
  journey: Journey,
  screen: ScreenName = 'desktop',
): Promise<{ user: RegisteredUser; context: BrowserContext; page: Page }> {
  const user = await registerInvitedUser(journey.server);
  return { user, ...(await loggedInOnDraw(journey, user, screen)) };
}

/** Waits until the server sends `user`'s mobile another code (one per SMS_RESEND_SECONDS). */
export async function waitForSmsResend(user: RegisteredUser): Promise<void> {
  await sleep(Math.max(0, user.codeSentAt + (SMS_RESEND_SECONDS + 1) * 1000 - Date.now()));
}

/** What a free creation asks for (as /chuangyi sends it): a one-phrase prompt, small and quick. */
export interface FreeCreation {
  prompt: string;
  steps: number;
  batchSize: number;
}

/** The request /chuangyi sends for a free creation, to /api/generate/task or to its /predict. */
export function freeCreationBody({ prompt, steps, batchSize }: FreeCreation) {
  return {
    templateId: null,
    stepIndex: 0,
    promptGroup: [{ id: 'free-0', groupName: prompt, promptText: prompt, custom: '1' }],
    negativePromptGroup: [],
    parameters: { width: 256, height: 256, steps, batchSize },
  };
}

/**
 * Makes a free creation through the API, as /chuangyi does, and waits until it has succeeded; answers the ids of
 * `user`'s works, newest first.
 */
export async function generateAndWait(
  server: TestServer,
  user: { token: string },
  creation: FreeCreation,
): Promise<string[]> {
  const started = await api<{ generateId: string }>(server, 'POST', '/api/generate/task', {
    token: user.token,
    body: freeCreationBody(creation),
  });
  expect(started.code, started.msg).toBe(0);
  await expect
    .poll(
      async () =>
        (
          await api<{ status: string }>(server, 'POST', '/api/generate/task/progress', {
            token: user.token,
            body: { generateId: started.data.generateId },
          })
        ).data.status,
      { timeout: 30_000 },
    )
    .toBe('succeeded');
  const mine = await api<{ list: { id: string }[] }>(server, 'GET', '/api/works/profile?current=1&pageSize=30', {
    token: user.token,
  });
  return mine.data.list.map((work) => work.id);
}

interface TreeNode {
  id: string;
  name: string;
  kind: string;
  children?: TreeNode[];
}

/** The id of an official template by name, read from the admin's task tree (category › task › template). */
export async function templateIdByName(server: TestServer, name: string): Promise<string> {
  const tree = (await api<TreeNode[]>(server, 'GET', '/api/task/tree/all', { token: await adminToken(server) })).data;
  const found = tree
    .flatMap((node) => [node, ...(node.children ?? [])])
    .flatMap((node) => node.children ?? [])
    .find((node) => node.kind === 'template' && node.name === name);
  if (!found) throw new Error(`no template ${name}`);
  return found.id;
}
