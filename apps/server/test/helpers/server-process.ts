import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../../..');

export type ProcessAnswer = { status: number; body: { code: number; msg: string; data: any } };

/** The real server (`main.ts`) as its own process on a data directory; `exited` resolves with its exit code. */
export class ServerProcess {
  output = '';
  port = 0;
  readonly exited: Promise<number | null>;
  protected readonly child: ChildProcess;

  constructor(dataDir: string, env: Record<string, string>) {
    this.child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
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
    ) => T,
    dataDir: string,
    env: Record<string, string> = {},
  ): Promise<T> {
    const server = new this(dataDir, env);
    const deadline = Date.now() + 45_000;
    while (!server.port) {
      if (!server.alive || Date.now() > deadline) throw new Error(`server did not start:\n${server.output}`);
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(server.output);
      if (match?.[1]) server.port = Number(match[1]);
      else await new Promise((r) => setTimeout(r, 100));
    }
    return server;
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

  async call(method: string, url: string, options: { token?: string; body?: unknown } = {}): Promise<ProcessAnswer> {
    const res = await fetch(`${this.baseUrl}${url}`, {
      method,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    return { status: res.status, body: await res.json() };
  }
}
