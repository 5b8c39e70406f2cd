import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { apiKeyRoutes } from './features/api-keys/api-key.routes.js';
import { appConfigRoutes } from './features/app-config/app-config.routes.js';
import { adminAuditPlugin } from './features/audit/admin-audit.plugin.js';
import { auditRoutes } from './features/audit/audit.routes.js';
import { authRoutes } from './features/auth/auth.routes.js';
import { backendRoutes } from './features/backends/backend.routes.js';
import { complianceRoutes } from './features/compliance/compliance.routes.js';
import { adminUserRoutes } from './features/credits/admin-user.routes.js';
import { creditRoutes } from './features/credits/credit.routes.js';
import { dashboardRoutes } from './features/dashboard/dashboard.routes.js';
import { downloadRoutes } from './features/download/download.routes.js';
import { fileRoutes } from './features/files/file.routes.js';
import { generateRoutes } from './features/generate/generate.routes.js';
import { healthRoutes } from './features/health/health.routes.js';
import { helpRoutes } from './features/help/help.routes.js';
import { inviteAdminRoutes } from './features/invite/invite.routes.js';
import { loraRoutes } from './features/loras/lora.routes.js';
import { modelRoutes } from './features/models/model.routes.js';
import { sensitiveWordRoutes } from './features/moderation/sensitive-word.routes.js';
import { workModerationAdminRoutes, workReportRoutes } from './features/moderation/work-moderation.routes.js';
import { noticeRoutes } from './features/notice/notice.routes.js';
import { optionRoutes } from './features/options/option.routes.js';
import { paymentAdminRoutes, paymentNoticeRoutes, paymentRoutes } from './features/payments/payment.routes.js';
import { promptRoutes } from './features/prompt/prompt.routes.js';
import { promptHistoryRoutes } from './features/prompt/prompt-history.routes.js';
import { comboRoutes } from './features/store/combo.routes.js';
import { taskRoutes } from './features/task/task.routes.js';
import { publicTemplateRoutes, templateRoutes } from './features/template/template.routes.js';
import { translateRoutes } from './features/translate/translate.routes.js';
import { userRoutes } from './features/user/user.routes.js';
import { webhookRoutes } from './features/webhooks/webhook.routes.js';
import { myWorkRoutes, publicWorkRoutes, workImageRoutes, workReviewRoutes } from './features/works/work.routes.js';
import { authPlugin } from './platform/auth/auth.plugin.js';
import type { Database } from './platform/db/database.js';
import { answerClientError, answerFrameworkError, registerErrorHandler } from './platform/error-handler.js';
import { tooManyRequests } from './platform/errors.js';
import { registerJsonDepthLimit } from './platform/json-depth.js';
import { LocalRateLimitStore } from './platform/local-rate-limit-store.js';
import { registerNulGuard } from './platform/nul-guard.js';
import { registerRequestLoggers } from './platform/request-logger.js';
import { API_DOCS_CSP, registerSecurityHeaders } from './platform/security-headers.js';
import { registerWebApp } from './platform/web.js';
import { openRuntime, roleOf } from './runtime.js';
import type { Services } from './services.js';

export type BuildOptions = {
  /** Where log lines go (tests read SMS codes from it); stdout when absent. */
  logStream?: Writable;
  /** Clock of the SMS code rules, so tests can step past an expiry. */
  clock?: () => number;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** DISPLAY_TIME_ZONE, for routes that name a day (download file names, 显示设置). */
    displayTimeZone: string;
  }
}

/** Returned in a plain object: a Fastify instance is thenable, so an async function must not return it bare. */
export type BuiltApp = { app: FastifyInstance; services: Services; db: Database };

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<BuiltApp> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
    // Rate limits key on the client address; only a trusted proxy may set it through X-Forwarded-For.
    trustProxy: config.trustProxy,
    // A client that stops sending mid-request loses its connection instead of holding it; Node checks for such
    // requests only every connectionsCheckingInterval (30 s by default), so the check runs more often here.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: Math.min(config.requestTimeoutMs, 60_000),
      connectionsCheckingInterval: Math.min(config.requestTimeoutMs / 2, 5_000),
    },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
  app.decorate('displayTimeZone', config.displayTimeZone);
  registerRequestLoggers(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app, config.uploadMaxBytes);
  registerNulGuard(app);
  registerJsonDepthLimit(app);
  // While shutting down, answers in flight close their connection so keep-alive clients do not hold the exit.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-request-id', req.id);
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  const runtime = await openRuntime(config, roleOf(config, 'api'), app.log, { clock: options.clock });
  const { db, services } = runtime;
  // Before connections close: running jobs stop and go back in line in the database for the next start.
  app.addHook('preClose', runtime.stopJobs);
  app.addHook('onClose', runtime.close);

  await registerSecurityHeaders(app, config.trustProxy);
  if (config.apiDocs) await registerApiDocs(app);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_req, ctx) => tooManyRequests(`操作过于频繁，请 ${Math.ceil(ctx.ttl / 1000)} 秒后再试`),
    // Scale-out: the counters live in Redis, so a limit counts the requests of all API processes together.
    ...(runtime.shared?.rateLimit ?? { store: LocalRateLimitStore }),
  });
  await app.register(authPlugin, {
    tokens: services.sessions,
    apiKeys: services.apiKeys,
    apiKeyPerMinute: config.apiKeys.perMinute,
  });
  await app.register(adminAuditPlugin, {
    recorder: services.audit.recorder,
    targetName: (type, id) => services.audit.targetName(type, id),
  });

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { health: services.health });
      await api.register(authRoutes, { auth: services.auth, rateLimit: config.rateLimit });
      await api.register(userRoutes, { users: services.users });
      await api.register(apiKeyRoutes, { apiKeys: services.apiKeys });
      await api.register(webhookRoutes, {
        webhooks: services.webhooks,
        testsPerMinute: config.webhookTests.perUserPerMinute,
      });
      await api.register(fileRoutes, { files: services.files, uploadMaxBytes: config.uploadMaxBytes });
      await api.register(helpRoutes, { help: services.help });
      await api.register(appConfigRoutes, { appConfig: services.appConfig });
      await api.register(complianceRoutes, { compliance: services.compliance });
      await api.register(inviteAdminRoutes, { invites: services.invites });
      await api.register(sensitiveWordRoutes, { sensitiveWords: services.sensitiveWords });
      await api.register(auditRoutes, { audit: services.audit });
      await api.register(taskRoutes, { tasks: services.tasks });
      await api.register(templateRoutes, { templates: services.templates, works: services.works });
      await api.register(publicTemplateRoutes, { templates: services.templates });
      await api.register(promptRoutes, { prompts: services.prompts });
      await api.register(translateRoutes, {
        translate: services.translate,
        perUserPerMinute: config.translate.perUserPerMinute,
      });
      await api.register(modelRoutes, { models: services.models, modelImport: services.modelImport });
      await api.register(loraRoutes, { loras: services.loras, modelSync: services.modelSync });
      await api.register(optionRoutes, { models: services.models, backendOptions: services.backendOptions });
      await api.register(generateRoutes, {
        controlnetPreview: services.controlnetPreview,
        generation: services.generation,
        tracking: services.tracking,
        board: services.board,
        compliance: services.compliance,
      });
      const workDeps = {
        works: services.works,
        repo: services.workRepo,
        storage: services.storage,
        signer: services.signer,
        compliance: services.compliance,
      };
      await api.register(workImageRoutes, workDeps);
      await api.register(myWorkRoutes, workDeps);
      await api.register(publicWorkRoutes, workDeps);
      await api.register(workReviewRoutes, workDeps);
      await api.register(workReportRoutes, { moderation: services.workModeration });
      await api.register(workModerationAdminRoutes, { moderation: services.workModeration });
      await api.register(noticeRoutes, { notices: services.notices });
      await api.register(promptHistoryRoutes, { history: services.promptHistory });
      await api.register(backendRoutes, { backends: services.backendAdmin });
      await api.register(comboRoutes, { combos: services.combos });
      const payments = {
        orders: services.orders,
        orderAdmin: services.orderAdmin,
        settlement: services.settlement,
        wechatOAuth: services.wechatOAuth,
      };
      await api.register(paymentRoutes, payments);
      await api.register(paymentNoticeRoutes, payments);
      await api.register(paymentAdminRoutes, payments);
      await api.register(adminUserRoutes, { credits: services.credits, users: services.users });
      await api.register(creditRoutes, { credits: services.credits });
      await api.register(dashboardRoutes, { dashboard: services.dashboard });
      await api.register(downloadRoutes);
    },
    { prefix: '/api' },
  );
  await registerWebApp(app, config.webDistDir);

  return { app, services, db };
}

/** The OpenAPI document of every /api route and its Swagger UI at /api/docs. */
async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: '画坊 API',
        description: '画坊的全部 /api 接口；每个应答都是 {code, msg, data} 信封。',
        version: '0.1.0',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: API_DOCS_CSP,
    uiConfig: { validatorUrl: null },
  });
}
