import { createServer, type Server } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import type { Config } from '../config.js';
import type { Storage } from '../platform/storage/storage.js';
import { openRuntime, type Runtime } from '../runtime.js';

export type WorkerProcess = { runtime: Runtime; log: FastifyBaseLogger; close(): Promise<void> };

/**
 * A scale-out worker: runs generation jobs from BullMQ on the backends it leases, and answers nothing but an
 * optional health probe (`GET /health` on WORKER_HEALTH_PORT: 200 while it takes jobs, 503 while stopping or while
 * Redis, PostgreSQL or the storage does not answer).
 */
export async function startWorker(
  config: Config,
  options: { log?: FastifyBaseLogger; storage?: Storage } = {},
): Promise<WorkerProcess> {
  if (!config.redisUrl) throw new Error('npm run worker 需要扩展模式：请设置 REDIS_URL 与 DATABASE_URL');
  const log = options.log ?? pino({ level: config.logLevel });
  const runtime = await openRuntime(config, 'worker', log, { storage: options.storage });
  let stopping = false;
  let health: Server | undefined;
  if (config.worker.healthPort) {
    const { health: checks } = runtime.services;
    health = createServer((req, res) => {
      if (req.url !== '/health') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: false }));
        return;
      }
      // A worker needs all three to run a job: Redis (the queue), PostgreSQL (the rows) and the storage (images).
      void checks.check().then((report) => {
        const ok = report.status === 'ok' && !stopping;
        res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok, stopping, checks: report.checks }));
      });
    });
    const server = health;
    await new Promise<void>((resolve) => server.listen(config.worker.healthPort, config.host, resolve));
  }
  log.info(
    `画坊 worker 已启动（并发 ${config.worker.concurrency}${health ? `，健康检查端口 ${config.worker.healthPort}` : ''}）`,
  );
  return {
    runtime,
    log,
    async close() {
      stopping = true;
      await runtime.close();
      await new Promise<void>((resolve) => (health ? health.close(() => resolve()) : resolve()));
    },
  };
}
