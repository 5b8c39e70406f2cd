import { buildApp } from './app.js';
import { loadConfig } from './config.js';

const config = loadConfig();
const { app, services } = await buildApp(config);

/**
 * SIGTERM/SIGINT: running generations first get the grace period while the API still answers (their progress
 * polls too); then stop accepting, let in-flight requests finish, close the database, exit. A second signal
 * ends the grace period: running jobs stop and continue after the restart.
 */
let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) {
      app.log.info(`再次收到 ${signal}，运行中的生成任务立即停止，重启后继续`);
      services.queue.stopRunning();
      return;
    }
    closing = true;
    app.log.info(`收到 ${signal}，正在停止服务…`);
    services.queue
      .close()
      .then(() => app.close())
      .then(() => process.exit(0))
      .catch((err) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  });
}

await app.listen({ port: config.port, host: config.host });
const mode = config.redisUrl ? '扩展模式 API 进程，生成任务由 npm run worker 运行' : '嵌入式';
app.log.info(
  `画坊已启动：http://localhost:${config.port}（${mode}；数据库 ${config.database.kind}，文件 ${config.storage.kind}）`,
);
