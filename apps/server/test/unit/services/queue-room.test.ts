import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateBodySchema } from '@huafang/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { NO_ORIGIN } from '../../../src/features/audit/audit-recorder.js';
import { embeddedParts } from '../../../src/modes/embedded.js';
import { LocalBroadcast } from '../../../src/platform/broadcast/broadcast.js';
import { createDatabase, type Database } from '../../../src/platform/db/database.js';
import { migrateToLatest } from '../../../src/platform/db/migrations.js';
import { createSmsProvider } from '../../../src/platform/sms/create-sms-provider.js';
import { createStorage } from '../../../src/platform/storage/create-storage.js';
import { UrlSigner } from '../../../src/platform/url-signer.js';
import { createRepositories } from '../../../src/repositories.js';
import { seedDemoContent } from '../../../src/seed/seed.js';
import { createServices, type Services } from '../../../src/services.js';
import { insertUser } from './service-db.js';

const MAX_QUEUED = 3;
let dataDir: string;
let db: Database;
let services: Services;

/**
 * The generation service on a real SQLite database with the demo content, its queue never started: every job
 * submitted stays waiting, so the room a user has in the queue is all that decides.
 */
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'huafang-queue-room-'));
  const config = {
    ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
    queue: { maxRunningPerUser: 1, maxQueuedPerUser: MAX_QUEUED, maxAttempts: 1 },
  };
  db = createDatabase(config.database);
  await migrateToLatest(db);
  const log = pino({ level: 'silent' });
  services = createServices({
    db,
    config,
    sms: createSmsProvider(config.sms, log),
    storage: createStorage(config.storage),
    log,
    signer: new UrlSigner(Buffer.alloc(32, 1), 60_000),
    mode: embeddedParts(),
    bus: new LocalBroadcast(log),
  });
  await seedDemoContent(services);
});

afterAll(async () => {
  await services.audit.recorder.close();
  await db.destroy();
  await rm(dataDir, { recursive: true, force: true });
});

async function userWith(credits: number) {
  return { id: await insertUser(createRepositories(db, 'sqlite'), credits), isAdmin: false };
}

/** What the draw page sends for the first step of a demo template, as the route would validate it. */
async function demoBody(viewer: { id: string; isAdmin: boolean }) {
  const row = await db.selectFrom('templates').select('id').where('owner_id', 'is', null).executeTakeFirstOrThrow();
  const detail = await services.templates.detail(viewer, row.id);
  const step = detail.taskStepList[0]!;
  return generateBodySchema.parse({
    templateId: detail.templateId,
    stepIndex: 0,
    promptGroup: step.promptGroup,
    negativePromptGroup: step.negativePromptGroup,
    parameters: { batchSize: 1 },
  });
}

it('lets a user have as many jobs waiting as the queue allows, refuses the next, and charges nothing for it', async () => {
  const viewer = await userWith(1000);
  const body = await demoBody(viewer);
  for (let i = 0; i < MAX_QUEUED; i++) await services.generation.submit(viewer, body, NO_ORIGIN);
  const credits = await services.credits.balance(viewer.id);
  await expect(services.generation.submit(viewer, body, NO_ORIGIN)).rejects.toThrow(
    `排队中的任务已达上限（${MAX_QUEUED} 个），请等当前任务开始后再提交`,
  );
  expect(await services.credits.balance(viewer.id)).toBe(credits);
  // The room is each user's own: another user still gets in line.
  await services.generation.submit(await userWith(1000), body, NO_ORIGIN);
});
