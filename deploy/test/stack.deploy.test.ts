import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { freePort } from '../../apps/server/test/helpers/scale-out-cluster.js';

/**
 * The deployment kit, run for real: builds the stand-in base images (deploy/standins, test-only) and the real image,
 * starts deploy/compose.yaml as an operator would (`up -d` with a .env of real random secrets), and drives it from
 * outside through nginx only, as a browser would. Docker unreachable: skipped with one line on a developer's
 * machine, a failure on CI (REQUIRE_SERVICES=1).
 */
const root = path.resolve(import.meta.dirname, '../..');
const requireServices = process.env.REQUIRE_SERVICES === '1';
const PROJECT = 'huafang-deploy-test';

function dockerProblem(): string | null {
  const info = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8' });
  if (info.error) return `no docker command (${info.error.message})`;
  if (info.status !== 0) return `the Docker engine is unreachable: ${info.stderr.trim().split('\n')[0]}`;
  return null;
}

/** `docker compose` (v2) when there is one, else `docker-compose` (v1.29): the kit works with both. */
function composeCommand(): string[] | null {
  if (spawnSync('docker', ['compose', 'version']).status === 0) return ['docker', 'compose'];
  if (spawnSync('docker-compose', ['version']).status === 0) return ['docker-compose'];
  return null;
}

const problem = dockerProblem() ?? (composeCommand() ? null : 'neither `docker compose` nor `docker-compose` runs');
if (problem) {
  if (requireServices) throw new Error(`REQUIRE_SERVICES=1 and ${problem}`);
  console.warn(`[deploy] SKIPPED the Compose stack test: ${problem}. Install Docker and Compose to run it.`);
}

/** A command's output; a non-zero exit is an error carrying the output's tail. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (data) => {
      output += data;
    });
    child.stderr.on('data', (data) => {
      output += data;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${output.slice(-4000)}`));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(500);
  }
}

/** The tags the stand-in script and the Compose build write (REGISTRY is empty here). */
const BUILT_TAGS = [
  'huafang-standin/debian:bookworm-minbase',
  'node:24-bookworm-slim',
  'postgres:15',
  'redis:7',
  'nginx:1.28',
  'huafang:local',
];

async function imageIds(): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const tag of BUILT_TAGS) {
    const id = await run('docker', ['image', 'inspect', '-f', '{{.Id}}', tag]).catch(() => '');
    if (id.trim()) ids.set(tag, id.trim());
  }
  return ids;
}

/** A secret as an operator makes one (`openssl rand -hex 24`): 48 characters, letters and digits. */
const secret = () => randomBytes(24).toString('hex');

/** The CAs this machine added (a TLS-intercepting proxy's), for the image builds that reach the npm registry. */
function localCaCertificates(): string {
  const dir = '/usr/local/share/ca-certificates';
  if (!existsSync(dir)) return '';
  return readdirSync(dir)
    .filter((name) => name.endsWith('.crt'))
    .map((name) => readFileSync(path.join(dir, name), 'utf8').trim())
    .join('\n');
}

type Answer = { status: number; body: { code: number; msg: string; data: any } };
type Image = { workId: string; url: string; seed: number };
type Progress = { status: string; progress: number; message?: string | null; images: Image[] };

/** A 1-image and a 4-image free creation on the built-in engine (the second lasts a few seconds here). */
const SMALL = { width: 256, height: 256, steps: 8, batchSize: 1 };
const LONG = { width: 512, height: 512, steps: 40, batchSize: 4 };

describe.skipIf(problem !== null)('deploy: the image and the Compose stack, driven through nginx', () => {
  const compose = composeCommand() ?? [];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'huafang-deploy-'));
  const envFile = path.join(dir, '.env');
  /** The images this run builds, by tag, as they were before it: the ones it replaces are removed at the end. */
  let replaced = new Map<string, string>();
  let base = '';
  const mobile = `139${String(Date.now()).slice(-8)}`;
  /** A password as the sign-up form takes it: 8–32 characters with letters and digits. */
  const password = `Pw${secret().slice(0, 12)}7`;
  let token = '';
  const works: Image[] = [];

  // A multi-line value reaches Compose's interpolation from the environment (a .env line is one line).
  const buildEnv = { EXTRA_CA_CERT: localCaCertificates() };
  const composeRun = (...args: string[]) =>
    run(
      compose[0]!,
      [...compose.slice(1), '-p', PROJECT, '-f', 'deploy/compose.yaml', '--env-file', envFile, ...args],
      buildEnv,
    );
  const logs = (...services: string[]) => composeRun('logs', '--no-color', ...services);

  async function call(method: string, url: string, body?: unknown): Promise<Answer> {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: await res.json() };
  }

  async function submit(parameters: object): Promise<string> {
    const res = await call('POST', '/api/generate/task', {
      templateId: null,
      promptGroup: [{ id: 'p1', groupName: '山水', promptText: 'mountains, river' }],
      parameters,
    });
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data.generateId;
  }

  async function progress(generateId: string): Promise<Progress> {
    const res = await call('POST', '/api/generate/task/progress', { generateId });
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data;
  }

  const waitForEnd = (generateId: string) =>
    until(
      `generation ${generateId} ends`,
      async () => {
        const now = await progress(generateId);
        return ['queued', 'running'].includes(now.status) ? undefined : now;
      },
      240_000,
    );

  /** The image a user opens: a PNG through nginx. */
  async function expectImage(url: string) {
    const res = await fetch(`${base}${url}`);
    expect(res.status, url).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/(png|webp)$/);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
  }

  async function waitForSite() {
    await until(
      'the site answers /api/health through nginx',
      async () => ((await fetch(`${base}/api/health`)).status === 200 ? true : undefined),
      300_000,
    );
  }

  const explainFailures = () =>
    onTestFailed(async () => {
      console.log(await logs().catch((err: Error) => err.message));
    });

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    writeFileSync(
      envFile,
      [
        `HTTP_PORT=${port}`,
        `POSTGRES_PASSWORD=${secret()}`,
        `REDIS_PASSWORD=${secret()}`,
        `URL_SIGNING_SECRET=${secret()}`,
        `ADMIN_PASSWORD=Admin${secret().slice(0, 20)}9`,
        'AIGC_PRODUCER=HUAFANG-DEPLOY-TEST',
        'PUBLIC_BASE_URL=https://huafang.example.com',
        // A killed worker's job moves to the other worker after about 5 s.
        'JOB_LOCK_SECONDS=5',
        'WORKER_CONCURRENCY=1',
        '',
      ].join('\n'),
    );
    const started = Date.now();
    replaced = await imageIds();
    await run('deploy/standins/build.sh', [], buildEnv);
    // Leftovers of an interrupted earlier run.
    await composeRun('down', '-v', '--remove-orphans');
    await composeRun('build', 'migrate');
    const built = Date.now();
    await composeRun('up', '-d');
    await waitForSite();
    console.log(
      `[deploy] stand-ins and image built in ${Math.round((built - started) / 1000)} s, ` +
        `the stack served in ${Math.round((Date.now() - built) / 1000)} s more`,
    );
  }, 3_600_000);

  afterAll(async () => {
    await composeRun('down', '-v', '--remove-orphans').catch((err: Error) => console.log(err.message));
    rmSync(dir, { recursive: true, force: true });
    // The images this run's builds replaced (the build stages stay: they are the layer cache of the next run).
    const now = await imageIds();
    for (const [tag, id] of replaced) {
      if (now.get(tag) !== id) await run('docker', ['image', 'rm', id]).catch(() => undefined);
    }
  }, 300_000);

  it('a new user signs up by SMS (the code from the API log), generates on the built-in engine and opens the image', async () => {
    explainFailures();
    const send = await call('POST', '/api/auth/sendCode', { mobile, scene: 'login' });
    expect(send.body.code, send.body.msg).toBe(0);
    const code = await until(
      'the API logs the verification code',
      async () => new RegExp(`SMS code for ${mobile}: (\\d{6})`).exec(await logs('api1', 'api2'))?.[1],
      30_000,
    );
    const login = await call('POST', '/api/auth/mobile', { mobile, code });
    expect(login.body.code, login.body.msg).toBe(405);
    const signUp = await call('POST', '/api/auth/signUp', {
      userId: login.body.data.userId,
      password,
      account: `u${mobile}`,
    });
    expect(signUp.body).toMatchObject({ code: 0, data: { admin: 'false' } });
    token = signUp.body.data.token;

    const final = await waitForEnd(await submit({ ...SMALL, seed: 7 }));
    expect(final.status, final.message ?? '').toBe('succeeded');
    expect(final.images).toHaveLength(1);
    await expectImage(final.images[0]!.url);
    works.push(...final.images);
  });

  it('a worker killed mid-job (docker kill): the job is taken over and succeeds with every image', async () => {
    explainFailures();
    expect(token).not.toBe('');
    const generateId = await submit({ ...LONG, seed: 100 });
    const jobId = (
      await composeRun(
        'exec',
        '-T',
        'postgres',
        'psql',
        '-U',
        'huafang',
        '-d',
        'huafang',
        '-tAc',
        `select id from generation_jobs where generation_id = '${generateId}'`,
      )
    ).trim();
    expect(jobId).not.toBe('');
    const victim = await until(
      `a worker starts job ${jobId}`,
      async () => {
        for (const worker of ['worker1', 'worker2']) {
          if (
            (await logs(worker))
              .split('\n')
              .some((line) => line.includes('generation job started') && line.includes(jobId))
          ) {
            return worker;
          }
        }
        return undefined;
      },
      120_000,
    );
    await until(
      'the generation is 30 % painted',
      async () => {
        const now = await progress(generateId);
        return now.status === 'running' && now.progress >= 30 ? true : undefined;
      },
      120_000,
    );
    const container = (await composeRun('ps', '-q', victim)).trim();
    await run('docker', ['kill', container]);

    const final = await waitForEnd(generateId);
    expect(final.status, final.message ?? '').toBe('succeeded');
    expect(final.images.map((image) => image.seed)).toEqual([100, 101, 102, 103]);
    for (const image of final.images) await expectImage(image.url);
    // Resumed by the other worker, or by the killed one if Docker restarted it first: a second run either way.
    const runs = (await logs('worker1', 'worker2'))
      .split('\n')
      .filter((line) => line.includes('generation job started') && line.includes(jobId));
    expect(runs.length, 'runs of the job').toBeGreaterThanOrEqual(2);
    works.push(...final.images);
    console.log(`[deploy] ${victim} killed at ≥ 30 %; job ${jobId} resumed and succeeded (${runs.length} runs)`);
  });

  it('`down` (volumes kept) and `up` again: every work is still listed and opens', async () => {
    explainFailures();
    expect(works.length).toBe(5);
    await composeRun('down');
    await composeRun('up', '-d');
    await waitForSite();
    token = '';
    const login = await call('POST', '/api/auth/account', { account: `u${mobile}`, password });
    expect(login.body.code, login.body.msg).toBe(0);
    token = login.body.data.token;
    const listed = await call('GET', '/api/works/profile?current=1&pageSize=100');
    expect(listed.body.code, listed.body.msg).toBe(0);
    const list = listed.body.data.list as { id: string; url: string; thumbUrl: string }[];
    expect(list.map((work) => work.id).sort()).toEqual(works.map((work) => work.workId).sort());
    for (const work of list) {
      await expectImage(work.url);
      await expectImage(work.thumbUrl);
    }
  });
});
