import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The real server for the browser journeys, as `npm start` runs it: the build in apps/server/dist under plain node.
 * No vitest here: the e2e global setup (lanes.ts) starts the shared lane servers with it, and a journey file that
 * needs a server of its own starts one from its worker.
 */

/** The repository root, found from this file so the suite runs from any working directory. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const ADMIN = { account: 'admin', password: 'Admin12345' } as const;
export const SMS_RESEND_SECONDS = 2;

const SMS_LINE = /SMS code for (\d{11}): (\d{6})/;

export function freePort(): Promise<number> {
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

/** Where a running server is and where its stdout and stderr go: all a worker needs to use a server it did not start. */
export interface ServerAddress {
  baseUrl: string;
  logFile: string;
}

export interface TestServer extends ServerAddress {
  /** The newest code sent to `mobile` after this call started; call it before triggering the send. */
  waitForSmsCode(mobile: string, timeoutMs?: number): Promise<string>;
  /** Stops the server if this process started it; a lane's shared server is left to the global setup. */
  stop(): Promise<void>;
}

/** The last lines of a server's log, for an error message. */
function tail(logFile: string, lines = 30): string {
  try {
    return readFileSync(logFile, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Reads SMS codes from the log of a server started anywhere: each caller reads only the lines written after its
 * call for its own mobile, so journeys sharing a server do not see each other's codes.
 */
export function serverAt(address: ServerAddress, stop: () => Promise<void> = async () => undefined): TestServer {
  return {
    ...address,
    async waitForSmsCode(mobile, timeoutMs = 15_000) {
      const from = statSync(address.logFile).size;
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const written = readFileSync(address.logFile).subarray(from).toString('utf8');
        const newest = written
          .split('\n')
          .map((line) => SMS_LINE.exec(line))
          .filter((match): match is RegExpExecArray => match !== null && match[1] === mobile)
          .map((match) => match[2] as string)
          .at(-1);
        if (newest) return newest;
        await sleep(100);
      }
      throw new Error(`no SMS code for ${mobile} within ${timeoutMs} ms`);
    },
    stop,
  };
}

/**
 * Starts the compiled server (`node apps/server/dist/main.js`, built by `npm run build` or the e2e global setup) on
 * a free port with a fresh data dir; `env` adds to or overrides this process's environment, `{baseUrl}` in a value
 * becoming the server's own address (PUBLIC_BASE_URL, which the payment channels' notifications come back to).
 */
export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'huafang-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = path.join(dataDir, 'server.log');
  const log = openSync(logFile, 'a');

  const child = spawn(process.execPath, ['--enable-source-maps', 'apps/server/dist/main.js'], {
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
      ...Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value.replaceAll('{baseUrl}', baseUrl)])),
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);

  let exited = false;
  const exitedPromise = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`server exited during start-up:\n${tail(logFile)}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy in 60 s:\n${tail(logFile)}`);
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

  return serverAt({ baseUrl, logFile }, async () => {
    if (!exited) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exitedPromise;
      clearTimeout(killer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  });
}
