import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import { ApiKeyService } from './features/api-keys/api-key.service.js';
import { AppConfigService } from './features/app-config/app-config.service.js';
import { AuditService } from './features/audit/audit.service.js';
import { AuditRecorder } from './features/audit/audit-recorder.js';
import { AuthService } from './features/auth/auth.service.js';
import { LoginGuardService } from './features/auth/login-guard.service.js';
import { SessionService } from './features/auth/session.service.js';
import { SmsCodeService } from './features/auth/sms-code.service.js';
import { BackendAddressRules } from './features/backends/backend-address.js';
import { BackendAdminService } from './features/backends/backend-admin.service.js';
import { BackendOptions } from './features/backends/backend-catalog.js';
import { BackendPool } from './features/backends/backend-pool.js';
import { RedisBackendLeases } from './features/backends/redis-backend-leases.js';
import { ComplianceService } from './features/compliance/compliance.service.js';
import { CreditService } from './features/credits/credit.service.js';
import { DashboardService } from './features/dashboard/dashboard.service.js';
import { FileService } from './features/files/file.service.js';
import { BullJobQueue } from './features/generate/bullmq-job-queue.js';
import { ControlnetPreviewService } from './features/generate/controlnet-preview.service.js';
import { EmbeddedJobQueue } from './features/generate/embedded-job-queue.js';
import { GenerationService } from './features/generate/generation.service.js';
import { LocalInterruptChannel } from './features/generate/interrupt-channel.js';
import type { JobQueue } from './features/generate/job-queue.js';
import { JobRunner } from './features/generate/job-runner.js';
import { MemoryProgressStore } from './features/generate/progress-store.js';
import { RedisInterruptChannel } from './features/generate/redis-interrupt-channel.js';
import { RedisProgressStore } from './features/generate/redis-progress-store.js';
import { HealthService } from './features/health/health.service.js';
import { HelpService } from './features/help/help.service.js';
import { InviteService } from './features/invite/invite.service.js';
import { ModelService } from './features/models/model.service.js';
import { ModelImportService } from './features/models/model-import.service.js';
import { PublicationGate, workImageLink } from './features/moderation/publication-gate.js';
import { SensitiveWordService } from './features/moderation/sensitive-word.service.js';
import { SensitiveWordFilter } from './features/moderation/sensitive-word-filter.js';
import { WorkModerationService } from './features/moderation/work-moderation.service.js';
import { PromptService } from './features/prompt/prompt.service.js';
import { PromptHistoryService } from './features/prompt/prompt-history.service.js';
import { ComboService } from './features/store/combo.service.js';
import { TaskService } from './features/task/task.service.js';
import { TemplateService } from './features/template/template.service.js';
import { TranslateService } from './features/translate/translate.service.js';
import { UserService } from './features/user/user.service.js';
import { WebhookService } from './features/webhooks/webhook.service.js';
import { WebhookAddressRules } from './features/webhooks/webhook-address.js';
import { WebhookEvents } from './features/webhooks/webhook-events.js';
import { WebhookSender } from './features/webhooks/webhook-sender.js';
import { WorkService } from './features/works/work.service.js';
import type { Broadcast } from './platform/broadcast/broadcast.js';
import type { Database } from './platform/db/database.js';
import { createModerationProvider } from './platform/moderation/create-moderation-provider.js';
import type { SmsProvider } from './platform/sms/sms-provider.js';
import type { Storage } from './platform/storage/storage.js';
import type { UrlSigner } from './platform/url-signer.js';
import { createRepositories } from './repositories.js';

export type Services = ReturnType<typeof createServices>;

/**
 * What this process is: the one process of embedded mode (API and jobs), or in scale-out mode an API process
 * (no jobs) or a worker (jobs, no API).
 */
export type ProcessRole = 'embedded' | 'api' | 'worker';
/**
 * Scale-out mode's Redis: commands, a connection of its own for pub/sub, and one for the progress polls' reads
 * that pipelines the commands of concurrent requests into one write (kept apart from BullMQ's connection).
 */
export type RedisConnections = {
  client: Redis;
  subscriber: Redis;
  polls: Redis;
  /** Health probes: fails fast whatever the role, so a probe answers while Redis is away. */
  probe: Redis;
};

/** Every service of the product, wired once; API and worker processes mount the same ones. */
export function createServices(deps: {
  db: Database;
  config: Config;
  sms: SmsProvider;
  storage: Storage;
  log: FastifyBaseLogger;
  signer: UrlSigner;
  clock?: () => number;
  role: ProcessRole;
  redis?: RedisConnections;
  /** Revocations and cache invalidations to every API process (in-process when embedded, Redis when scaled out). */
  bus: Broadcast;
}) {
  const { db, config } = deps;
  const repos = createRepositories(db, config.database.kind);
  const sessions = new SessionService(repos, config.tokenTtlMs, deps.bus);
  const smsCodes = new SmsCodeService(repos, deps.sms, config.smsResendMs, deps.clock);
  const apiKeys = new ApiKeyService(repos, deps.bus, deps.log);
  const files = new FileService(repos, deps.storage, deps.signer);
  const invites = new InviteService(repos);
  const models = new ModelService(repos);
  // Workers hear no broadcasts: they would compare the list's revision on each check (they check nothing today).
  const words = new SensitiveWordFilter(repos, deps.bus, deps.role !== 'worker');
  const templates = new TemplateService(repos, models, words);
  // Every process records its own entries (API requests, worker job ends) and writes them in batches.
  const auditRepo = repos.audit;
  const auditRecorder = new AuditRecorder(auditRepo, deps.log);
  const credits = new CreditService(repos, auditRecorder);
  const works = repos.works;
  const moderationRepo = repos.workModeration;
  const backendRows = repos.backends;
  const { redis, role } = deps;
  if ((role === 'embedded') !== (redis === undefined))
    throw new Error(`Process role ${role} needs Redis iff scale-out`);
  const prefix = config.redisPrefix;
  // The built-in demo engine is always in the pool; admins add the GPU servers.
  const pool = new BackendPool(
    backendRows,
    new BackendAddressRules(config.backendAllowedHosts),
    redis ? new RedisBackendLeases(redis.client, prefix, config.worker.lockMs, config.backendHealthMs) : null,
    { timeoutMs: config.backendTimeoutMs },
  );
  const backendAdmin = new BackendAdminService(backendRows, pool);
  const backendOptions = new BackendOptions(pool);
  const board = redis ? new RedisProgressStore(redis.polls, prefix) : new MemoryProgressStore();
  const interrupts = redis
    ? new RedisInterruptChannel(redis.client, redis.subscriber, prefix)
    : new LocalInterruptChannel();
  const generations = repos.generations;
  // Workers hear no broadcasts: they read the settings for each image instead of keeping a copy.
  const compliance = new ComplianceService(repos, deps.bus, role !== 'worker', config.aigcProducer);
  const webhookRepo = repos.webhooks;
  const webhookRules = new WebhookAddressRules(config.webhooks);
  const webhookSender = new WebhookSender(webhookRepo, webhookRules, config.webhooks, deps.log);
  const webhookEvents = new WebhookEvents(webhookRepo, deps.signer);
  // Jobs settle where the sender loop runs (embedded process, workers): it hears of their events at once.
  webhookEvents.onEmitted(() => webhookSender.nudge());
  const runner = new JobRunner({
    db,
    repo: generations,
    works,
    files,
    storage: deps.storage,
    credits,
    compliance,
    board,
    pool,
    webhooks: webhookEvents,
    maxAttempts: config.queue.maxAttempts,
    signer: deps.signer,
    log: deps.log,
    audit: auditRecorder,
  });
  const translate = new TranslateService({
    repos,
    provider: config.translate.provider,
    log: deps.log,
    bus: deps.bus,
    words,
  });
  const queueDeps = {
    pool,
    runner,
    interrupts,
    repo: generations,
    limits: config.queue,
    shutdownGraceMs: config.shutdownGraceMs,
    log: deps.log,
  };
  const queue: JobQueue =
    redis && role !== 'embedded'
      ? new BullJobQueue({ ...queueDeps, redis: redis.client, polls: redis.polls, prefix, role, worker: config.worker })
      : new EmbeddedJobQueue(queueDeps);
  queue.handle('generation', (item, backend, run) => runner.run(item, backend, run));
  return {
    controlnetPreview: new ControlnetPreviewService(backendOptions, files),
    models,
    modelImport: new ModelImportService(repos, backendAdmin),
    templates,
    tasks: new TaskService(repos, templates, words),
    prompts: new PromptService(repos, () => translate.invalidateLibrary()),
    sessions,
    apiKeys,
    webhooks: new WebhookService(webhookRepo, webhookRules, webhookSender),
    webhookSender,
    smsCodes,
    files,
    invites,
    auth: new AuthService(
      repos,
      sessions,
      smsCodes,
      config.newUserCredits,
      new LoginGuardService(repos, config.loginGuard, deps.clock),
      auditRecorder,
      apiKeys,
    ),
    users: new UserService(repos, sessions, smsCodes, invites, files, words, apiKeys),
    help: new HelpService(repos, words),
    sensitiveWords: new SensitiveWordService(repos, words),
    wordFilter: words,
    health: new HealthService(db, deps.storage, config.database.kind, redis ? { probe: redis.probe, queue } : null),
    translate,
    appConfig: new AppConfigService(repos),
    compliance,
    storage: deps.storage,
    works: new WorkService(
      works,
      deps.storage,
      files,
      deps.signer,
      webhookEvents,
      auditRecorder,
      new PublicationGate(
        createModerationProvider(config.moderation, deps.log),
        deps.storage,
        moderationRepo,
        deps.log,
        workImageLink(deps.signer, config.publicBaseUrl),
      ),
    ),
    workModeration: new WorkModerationService(moderationRepo, works, files, deps.signer, webhookEvents),
    audit: new AuditService(auditRepo, auditRecorder, config.audit.retentionDays, deps.log),
    signer: deps.signer,
    promptHistory: new PromptHistoryService(repos),
    credits,
    combos: new ComboService(repos, credits),
    workRepo: works,
    pool,
    backendAdmin,
    backendOptions,
    board,
    interrupts,
    queue,
    dashboard: new DashboardService(repos, queue, pool),
    role,
    generation: new GenerationService({
      db,
      repo: generations,
      templates,
      models,
      files,
      works,
      credits,
      pool,
      queue,
      board,
      interrupts,
      signer: deps.signer,
      words,
      audit: auditRecorder,
      log: deps.log,
    }),
  };
}

/** Starts the generation machinery: registered backends, the jobs a previous run left, health checks. */
export async function startGeneration(services: Services, healthIntervalMs: number): Promise<void> {
  await services.pool.load();
  if (services.role === 'worker' && services.interrupts instanceof RedisInterruptChannel) {
    await services.interrupts.listen();
  }
  await services.queue.start();
  services.pool.startHealthChecks(healthIntervalMs);
  // Webhook deliveries go out (and are retried) where jobs run, like the events of the jobs they report.
  if (services.role !== 'api') services.webhookSender.start();
  // The daily prune runs where jobs run; in scale-out every worker prunes, harmlessly (same cutoff, idempotent).
  if (services.role !== 'api') services.audit.startPruning();
}

export async function stopGeneration(services: Services): Promise<void> {
  services.audit.stopPruning();
  await services.webhookSender.close();
  services.pool.stopHealthChecks();
  await services.queue.close();
  await services.pool.close();
  await services.interrupts.close();
  await services.board.close();
}
