import type { Config } from './config.js';
import { BuiltinEngine } from './engines/builtin/builtin-engine.js';
import { AppConfigService } from './features/app-config/app-config.service.js';
import { AuthService } from './features/auth/auth.service.js';
import { SessionService } from './features/auth/session.service.js';
import { SmsCodeService } from './features/auth/sms-code.service.js';
import { FileService } from './features/files/file.service.js';
import { ControlnetPreviewService } from './features/generate/controlnet-preview.service.js';
import { HelpService } from './features/help/help.service.js';
import { InviteService } from './features/invite/invite.service.js';
import { ModelService } from './features/models/model.service.js';
import { PromptService } from './features/prompt/prompt.service.js';
import { TaskService } from './features/task/task.service.js';
import { TemplateService } from './features/template/template.service.js';
import { UserService } from './features/user/user.service.js';
import type { Database } from './platform/db/database.js';
import type { SmsProvider } from './platform/sms/sms-provider.js';
import type { Storage } from './platform/storage/storage.js';

export type Services = ReturnType<typeof createServices>;

/** Every service of the product, wired once; API and worker processes mount the same ones. */
export function createServices(deps: {
  db: Database;
  config: Config;
  sms: SmsProvider;
  storage: Storage;
  clock?: () => number;
}) {
  const { db, config } = deps;
  const sessions = new SessionService(db, config.tokenTtlMs);
  const smsCodes = new SmsCodeService(db, deps.sms, config.smsResendMs, deps.clock);
  const files = new FileService(db, deps.storage);
  const invites = new InviteService(db);
  const models = new ModelService(db);
  const templates = new TemplateService(db, models);
  // The built-in demo engine is always there in embedded mode; the backend registry of issue 4 joins it.
  const engine = new BuiltinEngine();
  return {
    engine,
    controlnetPreview: new ControlnetPreviewService(engine, files),
    models,
    templates,
    tasks: new TaskService(db, templates),
    prompts: new PromptService(db),
    sessions,
    smsCodes,
    files,
    invites,
    auth: new AuthService(db, sessions, smsCodes, config.newUserCredits),
    users: new UserService(db, sessions, smsCodes, invites, files),
    help: new HelpService(db),
    appConfig: new AppConfigService(db),
  };
}
