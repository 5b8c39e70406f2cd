import type { FastifyInstance } from 'fastify';
import { fail } from './errors.js';

/** Far deeper than any payload of the contracts (a template's steps nest about six levels). */
export const MAX_JSON_DEPTH = 64;
export const JSON_DEPTH_MESSAGE = `请求内容的嵌套层级过深（最多 ${MAX_JSON_DEPTH} 层）`;

/** Whether arrays and objects nest deeper than `max`; walked with a list, so no depth can overflow the stack. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (max > 0 && isFlat(value)) return false;
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [inner, depth] = next;
    if (inner === null || typeof inner !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(inner)) pending.push([child, depth + 1]);
  }
  return false;
}

/** One object or array of plain values, as most bodies are (a poll's `{ generateId }`): no walk needed. */
function isFlat(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  for (const key in value) {
    const inner = (value as Record<string, unknown>)[key];
    if (inner !== null && typeof inner === 'object') return false;
  }
  return true;
}

/**
 * JSON bodies are parsed as Fastify does (prototype poisoning refused), then refused with a 400 when they nest
 * deeper than MAX_JSON_DEPTH: every later step that walks a body (the NUL guard, validation, the admin audit's
 * redaction) may then recurse safely, where 5,000 levels within the 1 MB limit overflowed the stack (a 500).
 */
export function registerJsonDepthLimit(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body: string, done) => {
    parse(req, body, (error: Error | null, value?: unknown) => {
      if (error) done(error, undefined);
      else if (nestsDeeperThan(value, MAX_JSON_DEPTH)) done(fail(JSON_DEPTH_MESSAGE, 400), undefined);
      else done(null, value);
    });
  });
}
