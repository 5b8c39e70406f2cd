import { BizCode } from '@huafang/contracts';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { describeValidationIssue } from '../../platform/error-handler.js';
import { BizError } from '../../platform/errors.js';
import { type AuditRecorder, originOf } from './audit-recorder.js';

/** Field names whose values never enter the trail: passwords, secrets, tokens, keys (not `keyword`). */
const SECRET_NAME = /password|secret|token|credential|key$/i;
/** Long texts (an imported word list) and long lists are cut: the trail says what was done, not every byte. */
const TEXT_MAX = 500;
const LIST_MAX = 50;

/** The value with every secret-named field replaced, long strings and lists shortened, at any depth. */
export function redacted(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.length > TEXT_MAX ? `${value.slice(0, TEXT_MAX)}…（共 ${value.length} 字）` : value;
  }
  if (Array.isArray(value)) {
    const kept = value.slice(0, LIST_MAX).map(redacted);
    return value.length > LIST_MAX ? [...kept, `…（共 ${value.length} 项）`] : kept;
  }
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, inner]) => [name, SECRET_NAME.test(name) ? '[已隐去]' : redacted(inner)]),
  );
}

export type AuditTarget = { type: string; id: string; name?: string };
/** The name of a target by kind and id, from the database (AuditService.targetName). */
export type TargetNamer = (type: string, id: string) => Promise<string | undefined>;

/** The kind of thing an admin route acts on, by the first segments of its path (after /api/admin/ or /api/). */
const TARGET_TYPES: [RegExp, string][] = [
  [/^\/api\/task\/template\/step\//, 'template_step'],
  [/^\/api\/task\/template\//, 'template'],
  [/^\/api\/task(\/|$)/, 'task'],
  [/^\/api\/admin\/users?(\/|$)/, 'user'],
  [/^\/api\/admin\/works?(\/|$)/, 'work'],
  [/^\/api\/admin\/moderation(\/|$)/, 'work'],
  [/^\/api\/admin\/backends(\/|$)/, 'backend'],
  [/^\/api\/admin\/models(\/|$)/, 'model'],
  [/^\/api\/admin\/model-groups(\/|$)/, 'model_group'],
  [/^\/api\/admin\/combos(\/|$)/, 'combo'],
  [/^\/api\/admin\/sensitive-words(\/|$)/, 'sensitive_word'],
  [/^\/api\/admin\/prompt\//, 'prompt_word'],
  [/^\/api\/admin\/invite/, 'invite_code'],
  [/^\/api\/admin\/help/, 'help'],
  [/^\/api\/admin\/agreement\//, 'agreement'],
  [/^\/api\/admin\/compliance/, 'compliance'],
];
const ID_FIELDS = ['id', 'userId', 'workId', 'templateId', 'taskId', 'stepId', 'type'] as const;
/**
 * Kinds whose bodies also name other things: a template's body names the task it sits in, a cover's the work it
 * is taken from; only these fields name the target itself.
 */
const ID_FIELDS_OF: Record<string, readonly string[]> = {
  template: ['id', 'templateId'],
  template_step: ['id'],
  task: ['id', 'taskId'],
};
const NAME_FIELDS = ['name', 'nickname', 'title', 'account'] as const;

const textOf = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * What an admin request acts on, so the trail names it: the kind from the route, the id from the path or the body
 * (a user id, a template id …), and a name when the body gives one (a template's, a task's, a backend's).
 */
export function targetOf(route: string, params: unknown, body: unknown): AuditTarget | undefined {
  const type = TARGET_TYPES.find(([pattern]) => pattern.test(route))?.[1];
  const idFields = ID_FIELDS_OF[type ?? ''] ?? ID_FIELDS;
  const sources = [params, body].map((source) =>
    source && typeof source === 'object' && !Array.isArray(source) ? (source as Record<string, unknown>) : {},
  );
  const [fromPath, fromBody] = sources as [Record<string, unknown>, Record<string, unknown>];
  let id: string | undefined;
  for (const source of [fromPath, fromBody]) {
    for (const field of idFields) id ??= textOf(source[field]);
  }
  // A body about one user (算力调整, 停用) names the user whatever the route's kind.
  const userId = textOf(fromBody.userId);
  if (userId && !textOf(fromPath.id)) return { type: 'user', id: userId };
  if (!type || !id) return undefined;
  let name: string | undefined;
  for (const field of NAME_FIELDS) name ??= textOf(fromBody[field]);
  return { type, id, ...(name ? { name: name.slice(0, 100) } : {}) };
}

/** A creation (a task, a new template) names its id only in the answer: `data.id` or `data.templateId`. */
export function createdTarget(route: string, body: unknown, payload: unknown): AuditTarget | undefined {
  const type = TARGET_TYPES.find(([pattern]) => pattern.test(route))?.[1];
  if (!type || typeof payload !== 'string') return undefined;
  let data: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(payload)?.data;
    if (parsed && typeof parsed === 'object') data = parsed;
  } catch {
    return undefined;
  }
  const id = textOf(data.id) ?? textOf(data.templateId);
  if (!id) return undefined;
  const fromBody = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const name = textOf(fromBody.name) ?? textOf(data.name);
  return { type, id, ...(name ? { name: name.slice(0, 100) } : {}) };
}

/**
 * Every request requireAdmin let in that changes something (not GET or HEAD) becomes an `admin.request` entry:
 * method, route, answer status, the business error if any, and the redacted body. Recorded once the answer has
 * gone; naming the target reads one row before the handler runs.
 */
export const adminAuditPlugin = fp(
  async (app, { recorder, targetName }: { recorder: AuditRecorder; targetName: TargetNamer }) => {
    const errors = new WeakMap<FastifyRequest, { code: number | string; msg: string }>();
    const targets = new WeakMap<FastifyRequest, AuditTarget | undefined>();
    const recorded = (req: FastifyRequest) =>
      req.adminRoute && req.method !== 'GET' && req.method !== 'HEAD' && req.authUser !== null;
    const routeOf = (req: FastifyRequest) => req.routeOptions.url ?? req.url;

    // Callback hooks, not async ones: every request of every route passes them, and all but an admin's changes
    // leave at once instead of costing a promise each (a few µs of every progress poll, bench/progress.bench.ts).
    // Before the change: a deletion's target has no name afterwards, and a body that only gives an id names nothing.
    app.addHook('preHandler', (req, _reply, done) => {
      if (!recorded(req)) return done();
      const target = targetOf(routeOf(req), req.params, req.body);
      targets.set(req, target);
      if (!target || target.name) return done();
      // Naming is a courtesy to the trail: a failed lookup must not fail the admin's request.
      targetName(target.type, target.id)
        .catch(() => undefined)
        .then((name) => {
          if (name) target.name = name.slice(0, 100);
          done();
        });
    });
    app.addHook('onSend', (req, reply, payload, done) => {
      if (recorded(req) && !targets.get(req) && reply.statusCode < 400) {
        const created = createdTarget(routeOf(req), req.body, payload);
        if (created) targets.set(req, created);
      }
      done(null, payload);
    });
    app.addHook('onError', async (req, _reply, error) => {
      if (!req.adminRoute) return;
      // A validation error's message is the Chinese one the admin saw; others are cut, for the admins' eyes only.
      const issue = hasZodFastifySchemaValidationErrors(error) ? error.validation[0] : undefined;
      errors.set(
        req,
        error instanceof BizError
          ? { code: error.code, msg: error.message }
          : issue
            ? { code: BizCode.FAIL, msg: describeValidationIssue(issue, error.validationContext) }
            : { code: error.statusCode ?? 500, msg: error.message.slice(0, 200) },
      );
    });
    app.addHook('onResponse', (req, reply, done) => {
      if (!recorded(req) || !req.authUser) return done();
      recorder.record({
        action: 'admin.request',
        userId: req.authUser.id,
        role: 'admin',
        origin: originOf(req),
        // A request refused before its handler (a validation error) has no looked-up target.
        target: targets.has(req) ? targets.get(req) : targetOf(routeOf(req), req.params, req.body),
        detail: {
          method: req.method,
          route: routeOf(req),
          status: reply.statusCode,
          ...(errors.has(req) ? { error: errors.get(req) } : {}),
          params: redacted(req.params),
          query: redacted(req.query),
          body: redacted(req.body),
        },
      });
      done();
    });
  },
  { name: 'huafang-admin-audit', dependencies: ['huafang-auth'] },
);
