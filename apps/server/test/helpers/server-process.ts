import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { expect } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../../..');
/** `npm start`: the API (and, embedded, the jobs). */
export const MAIN_SCRIPT = 'apps/server/src/main.ts';

/**
 * How a process runs: from the TypeScript sources through tsx (the default), or `compiled`: the build of the same
 * entry point (apps/server/dist, made by the server-process project's global setup) under plain node, as
 * `npm start` and the image run it. `nodeArgs` go to node before the script (e.g. a test's `--import` preload).
 */
export type Launch = { compiled?: boolean; nodeArgs?: string[] };

/** The build of an entry point of apps/server/src: apps/server/src/main.ts → apps/server/dist/main.js. */
export function compiledScript(script: string): string {
  return script.replace(/^apps\/server\/src\/(.*)\.ts$/, 'apps/server/dist/$1.js');
}

export type ProcessAnswer = { status: number; body: { code: number; msg: string; data: any } };

/** The first admin's password every process test starts its server with. */
export const ADMIN_PASSWORD = 'Admin12345';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it answers true; fails with `what` after `timeoutMs`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(50);
  }
}

/** What `progress` answers, as far as the process tests read it. */
export type Progress = {
  status: string;
  progress: number;
  message?: string | null;
  images: { workId: string; url: string; seed: number }[];
};

/**
 * The real server (`main.ts`, or another entry point such as `worker.ts`) as its own process on a data directory;
 * `exited` resolves with its exit code.
 */
export class ServerProcess {
  output = '';
  port = 0;
  readonly exited: Promise<number | null>;
  protected readonly child: ChildProcess;

  constructor(dataDir: string, env: Record<string, string>, launch: Launch & { script?: string } = {}) {
    const script = launch.script ?? MAIN_SCRIPT;
    const nodeArgs = launch.nodeArgs ?? [];
    const args = launch.compiled
      ? ['--enable-source-maps', ...nodeArgs, compiledScript(script)]
      : ['--import', 'tsx', ...nodeArgs, script];
    this.child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (d: Buffer) => {
      this.output += d.toString();
    };
    this.child.stdout?.on('data', collect);
    this.child.stderr?.on('data', collect);
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  /** Starts the process and waits until it listens (migrations and seed done). */
  static async start<T extends ServerProcess>(
    this: new (
      dataDir: string,
      env: Record<string, string>,
      launch?: Launch,
    ) => T,
    dataDir: string,
    env: Record<string, string> = {},
    launch: Launch = {},
    // Generous: on a loaded 2-core machine a cold tsx start of three processes at once has taken over 45 s.
    timeoutMs = 90_000,
  ): Promise<T> {
    const server = new this(dataDir, env, launch);
    const deadline = Date.now() + timeoutMs;
    while (!server.ready()) {
      if (!server.alive || Date.now() > deadline) {
        // Not left running behind the failed test (its caller never gets it to stop).
        server.signal('SIGKILL');
        throw new Error(`server did not start:\n${server.output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return server;
  }

  /** Whether it has started (here: listens, migrations and seed done); sets `port`. */
  protected ready(): boolean {
    const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(this.output);
    if (match?.[1]) this.port = Number(match[1]);
    return this.port > 0;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  signal(signal: 'SIGTERM' | 'SIGKILL'): void {
    if (this.alive) this.child.kill(signal);
  }

  async stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<number | null> {
    this.signal(signal);
    return this.exited;
  }

  /** `abortAfterMs`: the client gives up then, as a browser or a load balancer would (the call then fails). */
  async call(
    method: string,
    url: string,
    options: { token?: string; body?: unknown; abortAfterMs?: number } = {},
  ): Promise<ProcessAnswer> {
    const res = await fetch(`${this.baseUrl}${url}`, {
      method,
      ...(options.abortAfterMs ? { signal: AbortSignal.timeout(options.abortAfterMs) } : {}),
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    return { status: res.status, body: await res.json() };
  }
}

/** A server process with the calls of the admin generating through it, as the draw page makes them. */
export class GeneratingProcess extends ServerProcess {
  async login(): Promise<string> {
    const res = await this.call('POST', '/api/auth/account', { body: { account: 'admin', password: ADMIN_PASSWORD } });
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data.token;
  }

  async credits(token: string): Promise<number> {
    const res = await this.call('GET', '/api/user/currentUser', { token });
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data.credits;
  }

  /** A free creation (the default demo model unless `parameters` names another), answered as it came. */
  submitAnswer(token: string, parameters: object): Promise<ProcessAnswer> {
    return this.call('POST', '/api/generate/task', {
      token,
      body: {
        templateId: null,
        promptGroup: [{ id: 'p1', groupName: '山水', promptText: 'mountains, river' }],
        parameters,
      },
    });
  }

  /** The poll of the draw page as it came: code, message and data, so a test can judge every answer. */
  poll(token: string, generateId: string): Promise<ProcessAnswer> {
    return this.call('POST', '/api/generate/task/progress', { token, body: { generateId } });
  }

  async progress(token: string, generateId: string): Promise<Progress> {
    const res = await this.poll(token, generateId);
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data;
  }

  /** Polls like the draw page until the generation is no longer waiting or painting; every answer seen too. */
  async waitForEnd(token: string, generateId: string, timeoutMs = 90_000) {
    const seen: Progress[] = [];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const progress = await this.progress(token, generateId);
      seen.push(progress);
      if (!['queued', 'running'].includes(progress.status)) return { final: progress, seen };
      if (Date.now() > deadline) throw new Error(`generation ${generateId} still ${progress.status}`);
      await sleep(100);
    }
  }

  async waitForProgress(token: string, generateId: string, percent: number, timeoutMs = 60_000): Promise<void> {
    await until(
      `generation ${generateId} reaches ${percent}%`,
      async () => {
        const progress = await this.progress(token, generateId);
        return progress.status === 'running' && progress.progress >= percent;
      },
      timeoutMs,
    );
  }

  /** Every image of a result is a work the user can open. */
  async expectWorks(images: { workId: string; url: string }[]): Promise<void> {
    for (const image of images) {
      const res = await fetch(`${this.baseUrl}${image.url}`);
      expect(res.status, image.workId).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
    }
  }
}
