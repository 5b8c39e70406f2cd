import { pino } from 'pino';
import { loadConfig } from './config.js';
import { migrateAndSeed } from './runtime.js';

/**
 * `npm run migrate`: migrations and first-run seeding, then exit (a Kubernetes Job or init container before an
 * upgrade's rolling restart). API processes do the same at start, under the same lock, so this step is optional.
 */
const config = loadConfig();
const log = pino({ level: config.logLevel });
await migrateAndSeed(config, log);
log.info(`数据库已迁移并完成首次初始化（${config.database.kind}）`);
