import { ApiKeyRepository } from './features/api-keys/api-key.repository.js';
import { AppConfigRepository } from './features/app-config/app-config.repository.js';
import { AuditRepository } from './features/audit/audit.repository.js';
import { LoginGuardRepository } from './features/auth/login-guard.repository.js';
import { RegistrationRepository } from './features/auth/registration.repository.js';
import { SessionRepository } from './features/auth/session.repository.js';
import { SmsCodeRepository } from './features/auth/sms-code.repository.js';
import { BackendRepository } from './features/backends/backend.repository.js';
import { CreditRepository } from './features/credits/credit.repository.js';
import { DashboardRepository } from './features/dashboard/dashboard.repository.js';
import { FileRepository } from './features/files/file.repository.js';
import { GenerationRepository } from './features/generate/generation.repository.js';
import { HelpRepository } from './features/help/help.repository.js';
import { InviteRepository } from './features/invite/invite.repository.js';
import { LoraRepository } from './features/loras/lora.repository.js';
import { ModelRepository } from './features/models/model.repository.js';
import { SensitiveWordRepository } from './features/moderation/sensitive-word.repository.js';
import { WorkModerationRepository } from './features/moderation/work-moderation.repository.js';
import { NoticeRepository } from './features/notice/notice.repository.js';
import { OrderRepository } from './features/payments/order.repository.js';
import { PromptRepository } from './features/prompt/prompt.repository.js';
import { PromptHistoryRepository } from './features/prompt/prompt-history.repository.js';
import { ComboRepository } from './features/store/combo.repository.js';
import { TaskRepository } from './features/task/task.repository.js';
import { TemplateRepository } from './features/template/template.repository.js';
import { UserRepository } from './features/user/user.repository.js';
import { WebhookRepository } from './features/webhooks/webhook.repository.js';
import { WorkRepository } from './features/works/work.repository.js';
import type { Database, DbKind, Executor } from './platform/db/database.js';

export type Repositories = ReturnType<typeof createRepositories>;

/**
 * Every repository of the product, built once over one database and injected into the services. A service that
 * writes several rows together opens `transaction` and hands its `trx` to each repository method as the last
 * argument; without it a method runs on the database itself.
 */
export function createRepositories(db: Database, kind: DbKind) {
  const configs = new AppConfigRepository(db);
  return {
    transaction: <T>(work: (trx: Executor) => Promise<T>): Promise<T> => db.transaction().execute(work),
    apiKeys: new ApiKeyRepository(db, kind),
    audit: new AuditRepository(db),
    backends: new BackendRepository(db),
    combos: new ComboRepository(db),
    configs,
    credits: new CreditRepository(db),
    dashboard: new DashboardRepository(db),
    files: new FileRepository(db),
    generations: new GenerationRepository(db, kind),
    help: new HelpRepository(db),
    invites: new InviteRepository(db),
    loginFailures: new LoginGuardRepository(db),
    loras: new LoraRepository(db),
    models: new ModelRepository(db),
    notices: new NoticeRepository(db),
    orders: new OrderRepository(db, kind),
    promptHistory: new PromptHistoryRepository(db),
    prompts: new PromptRepository(db),
    registrations: new RegistrationRepository(db),
    sensitiveWords: new SensitiveWordRepository(db, configs),
    sessions: new SessionRepository(db),
    smsCodes: new SmsCodeRepository(db),
    tasks: new TaskRepository(db),
    templates: new TemplateRepository(db),
    users: new UserRepository(db),
    webhooks: new WebhookRepository(db, kind),
    workModeration: new WorkModerationRepository(db),
    works: new WorkRepository(db),
  };
}
