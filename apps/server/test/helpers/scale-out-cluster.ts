import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { expect } from 'vitest';
import { freePort } from './free-port.js';
import { ADMIN_PASSWORD, GeneratingProcess, type Launch, ServerProcess, until } from './server-process.js';
import { createTestDatabase, dropRedisKeys, onPostgresAdmin, queryRows, type TestDatabase } from './services.js';

// The deploy tests start their stack on free ports too.
export { freePort };

export const WORKER_SCRIPT = 'apps/server/src/worker.ts';

const USER_PASSWORD = 'Passw0rd!';

/** An API process (`npm start` in scale-out mode) with the calls of a user who generates. */
export class ApiProcess extends GeneratingProcess {
  /** A new user registered the way the web app does it (the console SMS provider logs the code); its token. */
  async register(mobile: string, nickname = '快用户'): Promise<string> {
    expect((await this.call('POST', '/api/auth/sendCode', { body: { mobile } })).body.code).toBe(0);
    let code = '';
    await until(`the SMS code for ${mobile} is logged`, () => {
      code = new RegExp(`SMS code for ${mobile}: (\\d{6})`).exec(this.output)?.[1] ?? '';
      return code !== '';
    });
    const login = await this.call('POST', '/api/auth/mobile', { body: { mobile, code } });
    expect(login.body.code, login.body.msg).toBe(405);
    const signUp = await this.call('POST', '/api/auth/signUp', {
      body: { userId: login.body.data.userId, password: USER_PASSWORD },
    });
    expect(signUp.body.code, signUp.body.msg).toBe(0);
    const token: string = signUp.body.data.token;
    const info = await this.call('POST', '/api/user/perfectInfo', { token, body: { nickname } });
    expect(info.body.code, info.body.msg).toBe(0);
    return token;
  }

  /** A free creation; answers its generateId. */
  async submit(token: string, parameters: object): Promise<string> {
    const res = await this.submitAnswer(token, parameters);
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data.generateId;
  }
}

/** A worker process (`npm run worker`): ready once it logs its start; `port` is its health port. */
export class WorkerProcess extends ServerProcess {
  constructor(dataDir: string, env: Record<string, string>, launch: Launch = {}) {
    super(dataDir, env, { ...launch, script: WORKER_SCRIPT });
    this.port = Number(env.WORKER_HEALTH_PORT);
  }

  protected override ready(): boolean {
    return this.output.includes('worker 已启动');
  }

  /** Whether this worker logged the start of a run of the job (first run or a resumed one). */
  started(jobId: string): boolean {
    return this.runsOf(jobId).length > 0;
  }

  /** This worker's runs of the job: how many images each one had left to paint. */
  runsOf(jobId: string): { images: number }[] {
    return this.logLines().filter((line) => line.msg === 'generation job started' && line.jobId === jobId) as {
      images: number;
    }[];
  }

  /** Its JSON log lines (pino), others left out. */
  logLines(): Record<string, any>[] {
    const lines: Record<string, any>[] = [];
    for (const text of this.output.split('\n')) {
      if (!text.startsWith('{')) continue;
      try {
        lines.push(JSON.parse(text));
      } catch {
        // A line cut by the read that is still being written.
      }
    }
    return lines;
  }
}

export type ClusterOptions = {
  redisUrl: string;
  apis?: number;
  workers?: number;
  /** Added to (or overriding) the environment of every process. */
  env?: Record<string, string>;
  /** Every process runs the build under plain node instead of the sources through tsx. */
  compiled?: boolean;
};

/**
 * A scale-out deployment on this machine: API and worker processes on loopback ports over one fresh PostgreSQL
 * database, one data directory (local storage, shared as a mounted volume would be) and one Redis under a prefix
 * of its own, so parallel test files never see each other's queues.
 */
export class ScaleOutCluster {
  readonly apis: ApiProcess[] = [];
  readonly workers: WorkerProcess[] = [];
  /** Every process started, the replaced ones too: their output explains a failure. */
  private readonly started: ServerProcess[] = [];

  private constructor(
    private readonly db: TestDatabase,
    readonly dataDir: string,
    readonly prefix: string,
    readonly redisUrl: string,
    private readonly extraEnv: Record<string, string>,
    private readonly compiled: boolean,
  ) {}

  static async start(options: ClusterOptions): Promise<ScaleOutCluster> {
    const db = await createTestDatabase('huafang_scaleout');
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'huafang-scaleout-'));
    const cluster = new ScaleOutCluster(
      db,
      dataDir,
      `hfproc-${db.name.slice(db.name.lastIndexOf('_') + 1)}`,
      options.redisUrl,
      options.env ?? {},
      options.compiled ?? false,
    );
    // The first process migrates the database and creates the admin; the others then start side by side.
    try {
      await cluster.startApi();
      await Promise.all([
        ...Array.from({ length: (options.apis ?? 2) - 1 }, () => cluster.startApi()),
        ...Array.from({ length: options.workers ?? 2 }, () => cluster.startWorker()),
      ]);
    } catch (err) {
      // One that did not start in time: the others would outlive the test file.
      await cluster.close();
      throw err;
    }
    return cluster;
  }

  get env(): Record<string, string> {
    return {
      DATABASE_URL: this.db.url,
      REDIS_URL: this.redisUrl,
      REDIS_PREFIX: this.prefix,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'info',
      ...this.extraEnv,
    };
  }

  async startApi(): Promise<ApiProcess> {
    const api = await ApiProcess.start(this.dataDir, this.env, { compiled: this.compiled });
    this.apis.push(api);
    this.started.push(api);
    return api;
  }

  /** Starts a worker; `nodeArgs` go to its node (e.g. a test's `--import` preload). */
  async startWorker(nodeArgs: string[] = []): Promise<WorkerProcess> {
    const env = { ...this.env, WORKER_HEALTH_PORT: String(await freePort()) };
    const worker = await WorkerProcess.start(this.dataDir, env, { compiled: this.compiled, nodeArgs });
    this.workers.push(worker);
    this.started.push(worker);
    return worker;
  }

  /** Takes a process that was stopped or killed out of the cluster's lists (its output stays for reports). */
  forget(process: ServerProcess): void {
    for (const list of [this.apis, this.workers] as ServerProcess[][]) {
      const index = list.indexOf(process);
      if (index >= 0) list.splice(index, 1);
    }
  }

  /** Processes of the cluster that exited on their own (none should). */
  exited(): ServerProcess[] {
    return [...this.apis, ...this.workers].filter((p) => !p.alive);
  }

  /** The last lines of every process, for failure messages. */
  logs(lines = 40): string {
    return this.started
      .map(
        (p, i) =>
          `--- process ${i} (pid ${p.pid}, alive ${p.alive}) ---\n${p.output.split('\n').slice(-lines).join('\n')}`,
      )
      .join('\n');
  }

  /** Ends every connection to the cluster's database from outside, as an administrator or a failover does. */
  async terminateDatabaseConnections(): Promise<number> {
    return onPostgresAdmin(async (admin) => {
      const res = await admin.query(
        'select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [this.db.name],
      );
      return res.rows.filter((row) => row.ended).length;
    });
  }

  /** Makes the cluster's database refuse new connections (and ends the open ones), or take them again. */
  async refuseDatabaseConnections(refuse: boolean): Promise<void> {
    await onPostgresAdmin((admin) => admin.query(`alter database "${this.db.name}" allow_connections ${!refuse}`));
    if (refuse) await this.terminateDatabaseConnections();
  }

  /** One value of the cluster's database (for checks a user cannot make, e.g. a job's attempts). */
  query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
    return queryRows<T>(this.db.url, text, values);
  }

  async close(): Promise<void> {
    await Promise.all(this.started.map((p) => p.stop('SIGKILL')));
    await this.db.drop().catch(() => undefined);
    await dropRedisKeys(this.redisUrl, this.prefix).catch(() => undefined);
    await rm(this.dataDir, { recursive: true, force: true });
  }
}

/** A redis-server of the test's own (port, append-only file in `dir`), for faults of Redis itself. */
export class RedisServer {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  output = '';

  private constructor(
    readonly port: number,
    readonly dir: string,
  ) {}

  static async start(): Promise<RedisServer> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'huafang-redis-'));
    const server = new RedisServer(await freePort(), dir);
    await server.launch();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts redis-server on the same port and directory (it reloads its append-only file) and waits for PONG. */
  async launch(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--appendonly', 'yes', '--dir', this.dir, '--save', ''],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    const collect = (d: Buffer) => {
      this.output += d.toString();
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    this.exited = new Promise((resolve) => child.on('exit', () => resolve()));
    await until(`redis-server on ${this.port} answers`, () => this.ping(), 10_000);
  }

  private async ping(): Promise<boolean> {
    const redis = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      return (await redis.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      redis.disconnect();
    }
  }

  /** Freezes the server (SIGSTOP): connections stay open and nothing answers, like a hung host. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /** SHUTDOWN as an operator's restart does it: the append-only file is flushed, then the process ends. */
  async stop(): Promise<void> {
    this.child?.kill('SIGTERM');
    await this.exited;
  }

  async close(): Promise<void> {
    this.child?.kill('SIGCONT');
    this.child?.kill('SIGKILL');
    await this.exited;
    await rm(this.dir, { recursive: true, force: true });
  }
}

/**
 * A TCP proxy in front of an inference backend that can freeze like a hung GPU server: once frozen it accepts
 * connections and reads requests but never answers, on the connections open then and on new ones. `freezeWhen`
 * sees each piece of a request before it is passed on; answering true freezes the proxy instead.
 */
export class FreezingProxy {
  frozen = false;
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    readonly url: string,
  ) {}

  static async start(target: string, freezeWhen: (data: Buffer) => boolean): Promise<FreezingProxy> {
    const { hostname, port } = new URL(target);
    let proxy: FreezingProxy | undefined;
    const server = net.createServer((client) => {
      const self = proxy!;
      self.sockets.add(client);
      client.on('close', () => self.sockets.delete(client));
      client.on('error', () => undefined);
      if (self.frozen) return;
      const upstream = net.connect(Number(port), hostname);
      self.sockets.add(upstream);
      upstream.on('close', () => self.sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
      client.on('data', (data) => {
        if (!self.frozen && freezeWhen(data)) self.frozen = true;
        if (!self.frozen) upstream.write(data);
      });
      upstream.on('data', (data) => {
        if (!self.frozen) client.write(data);
      });
      upstream.on('end', () => {
        if (!self.frozen) client.end();
      });
      client.on('end', () => {
        if (!self.frozen) upstream.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new FreezingProxy(server, `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`);
    return proxy;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
