import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Writable } from 'node:stream';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { appConfigRoutes } from './features/app-config/app-config.routes.js';
import { authRoutes } from './features/auth/auth.routes.js';
import { backendRoutes } from './features/backends/backend.routes.js';
import { adminUserRoutes } from './features/credits/admin-user.routes.js';
import { dashboardRoutes } from './features/dashboard/dashboard.routes.js';
import { downloadRoutes } from './features/download/download.routes.js';
import { fileRoutes } from './features/files/file.routes.js';
import { generateRoutes } from './features/generate/generate.routes.js';
import { healthRoutes } from './features/health/health.routes.js';
import { helpRoutes } from './features/help/help.routes.js';
import { inviteAdminRoutes } from './features/invite/invite.routes.js';
import { modelRoutes } from './features/models/model.routes.js';
import { optionRoutes } from './features/options/option.routes.js';
import { promptRoutes } from './features/prompt/prompt.routes.js';
import { promptHistoryRoutes } from './features/prompt/prompt-history.routes.js';
import { comboRoutes } from './features/store/combo.routes.js';
import { taskRoutes } from './features/task/task.routes.js';
import { publicTemplateRoutes, templateRoutes } from './features/template/template.routes.js';
import { translateRoutes } from './features/translate/translate.routes.js';
import { userRoutes } from './features/user/user.routes.js';
import { myWorkRoutes, publicWorkRoutes, workImageRoutes, workReviewRoutes } from './features/works/work.routes.js';
import { authPlugin } from './platform/auth/auth.plugin.js';
import { createDatabase, type Database } from './platform/db/database.js';
import { migrateToLatest } from './platform/db/migrations.js';
import { answerClientError, answerFrameworkError, registerErrorHandler } from './platform/error-handler.js';
import { tooManyRequests } from './platform/errors.js';
import { API_DOCS_CSP, registerSecurityHeaders } from './platform/security-headers.js';
import { ConsoleSmsProvider } from './platform/sms/sms-provider.js';
import { LocalDiskStorage } from './platform/storage/storage.js';
import { signingSecret, UrlSigner } from './platform/url-signer.js';
import { registerWebApp } from './platform/web.js';
import { ensureFirstAdmin, seedDemoContent } from './seed/seed.js';
import { createServices, type Services, startGeneration, stopGeneration } from './services.js';

export type BuildOptions = {
  /** Where log lines go (tests read SMS codes from it); stdout when absent. */
  logStream?: Writable;
  /** Clock of the SMS code rules, so tests can step past an expiry. */
  clock?: () => number;
};

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
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app, config.uploadMaxBytes);
  // While shutting down, answers in flight close their connection so keep-alive clients do not hold the exit.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
    if (closing) reply.header('connection', 'close');
  });

  const db = createDatabase(config.database, (err) => app.log.warn({ err }, 'database connection lost'));
  app.addHook('onClose', async () => {
    await db.destroy();
  });
  await migrateToLatest(db);

  const signer = new UrlSigner(await signingSecret(db, config.workUrls.secret), config.workUrls.ttlMs);
  const services = createServices({
    db,
    signer,
    config,
    sms: new ConsoleSmsProvider(app.log),
    storage: new LocalDiskStorage(path.join(config.dataDir, 'files')),
    log: app.log,
    clock: options.clock,
  });
  await ensureFirstAdmin(db, config, app.log);
  if (config.seedDemo) await seedDemoContent(db, services);
  await startGeneration(services, config.backendHealthMs);
  // Before connections close: running jobs stop and go back in line in the database for the next start.
  app.addHook('preClose', async () => {
    await stopGeneration(services);
  });

  await registerSecurityHeaders(app, config.trustProxy);
  if (config.apiDocs) await registerApiDocs(app);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_req, ctx) => tooManyRequests(`操作过于频繁，请 ${Math.ceil(ctx.ttl / 1000)} 秒后再试`),
  });
  await app.register(multipart, {
    limits: { fileSize: config.uploadMaxBytes, files: 9, fields: 10 },
  });
  await app.register(authPlugin, { tokens: services.sessions });

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { health: services.health });
      await api.register(authRoutes, { auth: services.auth, rateLimit: config.rateLimit });
      await api.register(userRoutes, { users: services.users });
      await api.register(fileRoutes, { files: services.files });
      await api.register(helpRoutes, { help: services.help });
      await api.register(appConfigRoutes, { appConfig: services.appConfig });
      await api.register(inviteAdminRoutes, { invites: services.invites });
      await api.register(taskRoutes, { tasks: services.tasks });
      await api.register(templateRoutes, { templates: services.templates, works: services.works });
      await api.register(publicTemplateRoutes, { templates: services.templates });
      await api.register(promptRoutes, { prompts: services.prompts });
      await api.register(translateRoutes, {
        translate: services.translate,
        perUserPerMinute: config.translate.perUserPerMinute,
      });
      await api.register(modelRoutes, { models: services.models, modelImport: services.modelImport });
      await api.register(optionRoutes, { models: services.models, registry: services.registry });
      await api.register(generateRoutes, {
        controlnetPreview: services.controlnetPreview,
        generation: services.generation,
        board: services.board,
      });
      const workDeps = {
        works: services.works,
        repo: services.workRepo,
        storage: services.storage,
        signer: services.signer,
      };
      await api.register(workImageRoutes, workDeps);
      await api.register(myWorkRoutes, workDeps);
      await api.register(publicWorkRoutes, workDeps);
      await api.register(workReviewRoutes, workDeps);
      await api.register(promptHistoryRoutes, { history: services.promptHistory });
      await api.register(backendRoutes, { registry: services.registry });
      await api.register(comboRoutes, { combos: services.combos });
      await api.register(adminUserRoutes, { db, credits: services.credits });
      await api.register(dashboardRoutes, { db, queue: services.queue, registry: services.registry });
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
