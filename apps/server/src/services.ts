import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import { ThreadedBuiltinEngine } from './engines/builtin/threaded-builtin-engine.js';
import { AppConfigService } from './features/app-config/app-config.service.js';
import { AuthService } from './features/auth/auth.service.js';
import { LoginGuardService } from './features/auth/login-guard.service.js';
import { SessionService } from './features/auth/session.service.js';
import { SmsCodeService } from './features/auth/sms-code.service.js';
import { BackendRepository } from './features/backends/backend.repository.js';
import { BackendAddressRules } from './features/backends/backend-address.js';
import { BackendRegistry } from './features/backends/backend-registry.js';
import { engineForBackend } from './features/backends/engine-factory.js';
import { CreditService } from './features/credits/credit.service.js';
import { FileService } from './features/files/file.service.js';
import { ControlnetPreviewService } from './features/generate/controlnet-preview.service.js';
import { GenerationRepository } from './features/generate/generation.repository.js';
import { GenerationService } from './features/generate/generation.service.js';
import { GenerationQueue } from './features/generate/generation-queue.js';
import { JobRunner } from './features/generate/job-runner.js';
import { ProgressBoard } from './features/generate/progress-board.js';
import { HealthService } from './features/health/health.service.js';
import { HelpService } from './features/help/help.service.js';
import { InviteService } from './features/invite/invite.service.js';
import { ModelService } from './features/models/model.service.js';
import { ModelImportService } from './features/models/model-import.service.js';
import { PromptService } from './features/prompt/prompt.service.js';
import { PromptHistoryService } from './features/prompt/prompt-history.service.js';
import { ComboService } from './features/store/combo.service.js';
import { TaskService } from './features/task/task.service.js';
import { TemplateService } from './features/template/template.service.js';
import { TranslateService } from './features/translate/translate.service.js';
import { UserService } from './features/user/user.service.js';
import { WorkRepository } from './features/works/work.repository.js';
import { WorkService } from './features/works/work.service.js';
import type { Database } from './platform/db/database.js';
import type { SmsProvider } from './platform/sms/sms-provider.js';
import type { Storage } from './platform/storage/storage.js';
import type { UrlSigner } from './platform/url-signer.js';

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
}) {
  const { db, config } = deps;
  const sessions = new SessionService(db, config.tokenTtlMs);
  const smsCodes = new SmsCodeService(db, deps.sms, config.smsResendMs, deps.clock);
  const files = new FileService(db, deps.storage, deps.signer);
  const invites = new InviteService(db);
  const models = new ModelService(db);
  const templates = new TemplateService(db, models);
  // The built-in demo engine is always registered in embedded mode; admins add the GPU servers.
  const engine = new ThreadedBuiltinEngine();
  const credits = new CreditService(db);
  const works = new WorkRepository(db);
  const registry = new BackendRegistry(
    new BackendRepository(db),
    engineForBackend,
    engine,
    new BackendAddressRules(config.backendAllowedHosts),
  );
  const board = new ProgressBoard();
  const generations = new GenerationRepository(db, config.database.kind);
  const runner = new JobRunner({
    db,
    repo: generations,
    works,
    files,
    storage: deps.storage,
    credits,
    board,
    signer: deps.signer,
    log: deps.log,
  });
  const translate = new TranslateService({ db, provider: config.translate.provider, log: deps.log });
  const queue = new GenerationQueue({
    registry,
    runner,
    board,
    limits: config.queue,
    shutdownGraceMs: config.shutdownGraceMs,
    log: deps.log,
  });
  return {
    engine,
    controlnetPreview: new ControlnetPreviewService(registry, files),
    models,
    modelImport: new ModelImportService(db, registry),
    templates,
    tasks: new TaskService(db, templates),
    prompts: new PromptService(db, () => translate.invalidateLibrary()),
    sessions,
    smsCodes,
    files,
    invites,
    auth: new AuthService(
      db,
      sessions,
      smsCodes,
      config.newUserCredits,
      new LoginGuardService(db, config.loginGuard, deps.clock),
    ),
    users: new UserService(db, sessions, smsCodes, invites, files),
    help: new HelpService(db),
    health: new HealthService(db, deps.storage, config.database.kind),
    translate,
    appConfig: new AppConfigService(db),
    storage: deps.storage,
    works: new WorkService(works, deps.storage, files, deps.signer),
    signer: deps.signer,
    promptHistory: new PromptHistoryService(db),
    credits,
    combos: new ComboService(db, credits),
    workRepo: works,
    registry,
    board,
    queue,
    generationRepo: generations,
    generation: new GenerationService({
      db,
      repo: generations,
      templates,
      models,
      files,
      works,
      credits,
      registry,
      queue,
      runner,
      board,
      signer: deps.signer,
    }),
  };
}

/** Starts the generation machinery: registered backends, the jobs a previous run left, health checks. */
export async function startGeneration(services: Services, healthIntervalMs: number): Promise<void> {
  await services.registry.load();
  await services.queue.recover(await services.generationRepo.unfinishedJobs());
  services.registry.startHealthChecks(healthIntervalMs);
}

export async function stopGeneration(services: Services): Promise<void> {
  services.registry.stopHealthChecks();
  await services.queue.close();
  await services.engine.close();
}
