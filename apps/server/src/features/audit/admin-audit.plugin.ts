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

/** The user an admin request concerns, when its body or path names one: entries can then be found by it. */
function targetOf(req: FastifyRequest): { type: string; id: string } | undefined {
  const body = req.body as { userId?: unknown } | undefined;
  return typeof body?.userId === 'string' ? { type: 'user', id: body.userId } : undefined;
}

/**
 * Every request requireAdmin let in that changes something (not GET or HEAD) becomes an `admin.request` entry:
 * method, route, answer status, the business error if any, and the redacted body. Recorded once the answer has
 * gone, so it costs the admin nothing.
 */
export const adminAuditPlugin = fp(
  async (app, { recorder }: { recorder: AuditRecorder }) => {
    const errors = new WeakMap<FastifyRequest, { code: number | string; msg: string }>();
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
    app.addHook('onResponse', async (req, reply) => {
      if (!req.adminRoute || req.method === 'GET' || req.method === 'HEAD' || !req.authUser) return;
      recorder.record({
        action: 'admin.request',
        userId: req.authUser.id,
        role: 'admin',
        origin: originOf(req),
        target: targetOf(req),
        detail: {
          method: req.method,
          route: req.routeOptions.url ?? req.url,
          status: reply.statusCode,
          ...(errors.has(req) ? { error: errors.get(req) } : {}),
          params: redacted(req.params),
          query: redacted(req.query),
          body: redacted(req.body),
        },
      });
    });
  },
  { name: 'huafang-admin-audit', dependencies: ['huafang-auth'] },
);
