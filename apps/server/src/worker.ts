import { loadConfig } from './config.js';
import { startWorker } from './worker/worker-process.js';

/** `npm run worker`: a scale-out worker process (REDIS_URL and DATABASE_URL required). */
const config = loadConfig();
const worker = await startWorker(config);

/**
 * SIGTERM/SIGINT: the running jobs get SHUTDOWN_GRACE_SECONDS to finish; those still running then stop, keep
 * their finished images and go back to BullMQ for another worker. A second signal ends the grace period.
 */
let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) {
      worker.log.info(`再次收到 ${signal}，运行中的生成任务立即交回队列`);
      worker.runtime.services.queue.stopRunning();
      return;
    }
    stopping = true;
    worker.log.info(`收到 ${signal}，worker 正在停止…`);
    worker
      .close()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        worker.log.error({ err }, 'worker shutdown failed');
        process.exit(1);
      });
  });
}
