import type { FastifyBaseLogger } from 'fastify';
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
import { ComplianceService } from './features/compliance/compliance.service.js';
import { CreditService } from './features/credits/credit.service.js';
import { DashboardService } from './features/dashboard/dashboard.service.js';
import { FileService } from './features/files/file.service.js';
import { ControlnetPreviewService } from './features/generate/controlnet-preview.service.js';
import { GenerationService } from './features/generate/generation.service.js';
import { GenerationTracking } from './features/generate/generation-tracking.js';
import { createJobLifecycle } from './features/generate/job-lifecycle.js';
import { HealthService } from './features/health/health.service.js';
import { HelpService } from './features/help/help.service.js';
import { InviteService } from './features/invite/invite.service.js';
import { LoraService } from './features/loras/lora.service.js';
import { ModelSyncService } from './features/loras/model-sync.service.js';
import { PlanAccess } from './features/loras/plan-access.js';
import { ModelService } from './features/models/model.service.js';
import { ModelImportService } from './features/models/model-import.service.js';
import { PublicationGate, workImageLink } from './features/moderation/publication-gate.js';
import { SensitiveWordService } from './features/moderation/sensitive-word.service.js';
import { SensitiveWordFilter } from './features/moderation/sensitive-word-filter.js';
import { WorkModerationService } from './features/moderation/work-moderation.service.js';
import { NoticeService } from './features/notice/notice.service.js';
import { OrderService } from './features/payments/order.service.js';
import { OrderAdminService } from './features/payments/order-admin.service.js';
import { createPaymentChannels } from './features/payments/payment-channels.js';
import { Settlement } from './features/payments/settlement.js';
import { WechatOAuthService } from './features/payments/wechat-oauth.service.js';
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
import type { ModeParts } from './modes/mode-parts.js';
import type { Broadcast } from './platform/broadcast/broadcast.js';
import type { Database } from './platform/db/database.js';
import { createModerationProvider } from './platform/moderation/create-moderation-provider.js';
import type { SmsProvider } from './platform/sms/sms-provider.js';
import type { Storage } from './platform/storage/storage.js';
import type { UrlSigner } from './platform/url-signer.js';
import { createRepositories } from './repositories.js';

export type Services = ReturnType<typeof createServices>;

/** Every service of the product, wired once; API and worker processes mount the same ones. */
export function createServices(deps: {
  db: Database;
  config: Config;
  sms: SmsProvider;
  storage: Storage;
  log: FastifyBaseLogger;
  signer: UrlSigner;
  clock?: () => number;
  /** The mode's generation parts (embeddedParts or scaleOutParts), built for this process's role. */
  mode: ModeParts;
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
  const planAccess = new PlanAccess(repos.loras);
  const backendRows = repos.backends;
  const { mode } = deps;
  const { role } = mode;
  // The built-in demo engine is always in the pool; admins add the GPU servers.
  const pool = new BackendPool(backendRows, new BackendAddressRules(config.backendAllowedHosts), mode.leases, {
    timeoutMs: config.backendTimeoutMs,
  });
  const models = new ModelService(repos, planAccess, pool);
  // Workers hear no broadcasts: they would compare the list's revision on each check (they check nothing today).
  const words = new SensitiveWordFilter(repos, deps.bus, deps.mode.role !== 'worker');
  const templates = new TemplateService(repos, models, words);
  // Every process records its own entries (API requests, worker job ends) and writes them in batches.
  const auditRepo = repos.audit;
  const auditRecorder = new AuditRecorder(auditRepo, deps.log);
  const credits = new CreditService(repos, auditRecorder);
  const works = repos.works;
  const moderationRepo = repos.workModeration;
  const backendAdmin = new BackendAdminService(backendRows, pool);
  const backendOptions = new BackendOptions(pool);
  const loras = new LoraService(repos.loras, planAccess, pool);
  const { board, interrupts } = mode;
  const generations = repos.generations;
  // Workers hear no broadcasts: they read the settings for each image instead of keeping a copy.
  const notices = new NoticeService(repos.notices, deps.signer);
  const compliance = new ComplianceService(repos, deps.bus, role !== 'worker', config.aigcProducer);
  const webhookRepo = repos.webhooks;
  const webhookRules = new WebhookAddressRules(config.webhooks);
  const webhookSender = new WebhookSender(webhookRepo, webhookRules, config.webhooks, deps.log);
  const webhookEvents = new WebhookEvents(webhookRepo, deps.signer);
  // Jobs settle where the sender loop runs (embedded process, workers): it hears of their events at once.
  webhookEvents.onEmitted(() => webhookSender.nudge());
  const lifecycle = createJobLifecycle({
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
    lifecycle,
    interrupts,
    repo: generations,
    limits: config.queue,
    shutdownGraceMs: config.shutdownGraceMs,
    log: deps.log,
  };
  const queue = mode.queue(queueDeps);
  const paymentChannels = createPaymentChannels(config.payments);
  const settlement = new Settlement(repos, paymentChannels, credits, webhookEvents, auditRecorder, deps.log);
  const paymentOptions = { orderTtlMs: config.payments.orderTtlMs, publicBaseUrl: config.payments.publicBaseUrl };
  return {
    paymentChannels,
    settlement,
    orders: new OrderService(repos, paymentChannels, settlement, credits, auditRecorder, paymentOptions, deps.log),
    orderAdmin: new OrderAdminService(repos, paymentChannels, settlement, credits, auditRecorder, deps.log),
    wechatOAuth: new WechatOAuthService(config.payments.wechatPay, config.payments.publicBaseUrl, deps.log),
    controlnetPreview: new ControlnetPreviewService(backendOptions, files),
    models,
    loras,
    modelSync: new ModelSyncService({ loras: repos.loras, models: repos.models, pool }),
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
    health: new HealthService(db, deps.storage, config.database.kind, mode.health(queue)),
    translate,
    appConfig: new AppConfigService(repos),
    compliance,
    storage: deps.storage,
    notices,
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
      notices,
      compliance,
      repos.models,
      repos.loras,
    ),
    workModeration: new WorkModerationService(
      moderationRepo,
      works,
      files,
      deps.signer,
      webhookEvents,
      auditRecorder,
      notices,
    ),
    audit: new AuditService(auditRepo, auditRecorder, config.audit.retentionDays, deps.log),
    signer: deps.signer,
    promptHistory: new PromptHistoryService(repos),
    credits,
    combos: new ComboService(repos, credits, paymentChannels.info()),
    workRepo: works,
    pool,
    backendAdmin,
    backendOptions,
    board,
    interrupts,
    queue,
    dashboard: new DashboardService(repos, queue, pool, config.displayTimeZone),
    role,
    tracking: new GenerationTracking({ repo: generations, works, queue, board, interrupts, signer: deps.signer }),
    generation: new GenerationService({
      db,
      repo: generations,
      templates,
      models,
      loras,
      files,
      works,
      credits,
      pool,
      queue,
      board,
      words,
      translate,
      audit: auditRecorder,
      log: deps.log,
    }),
  };
}
