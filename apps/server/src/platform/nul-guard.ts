import type { FastifyInstance } from 'fastify';
import { fail } from './errors.js';

export const NUL_MESSAGE = '请求内容包含无效字符（空字符），请删除后重试';

/** Whether any string in the value, at any depth, holds U+0000. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return false;
  // Keys, not Object.entries: every request passes here, and entries allocated a pair array per key.
  for (const name of Object.keys(value)) {
    if (name.includes('\u0000') || holdsNul((value as Record<string, unknown>)[name])) return true;
  }
  return false;
}

/**
 * PostgreSQL cannot store U+0000 in text and refuses the whole statement, while SQLite keeps it: refusing it at the
 * door gives both databases the same clear answer instead of a 500 on one of them.
 */
export function registerNulGuard(app: FastifyInstance): void {
  // A callback hook, not an async one: every request passes here, and most polls carry a few short strings.
  app.addHook('preValidation', (req, _reply, done) => {
    done(holdsNul(req.params) || holdsNul(req.query) || holdsNul(req.body) ? fail(NUL_MESSAGE, 400) : undefined);
  });
}
