import { emptyEnvelopeSchema, envelopeSchema } from '@huafang/contracts';
import fastJson from 'fast-json-stringify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** Response schema of a route: the shared envelope, with HTTP 200 answers validated and stripped by it. */
export const reply = <T extends z.ZodType>(data: T) => ({ 200: envelopeSchema(data) });

export const replyEmpty = { 200: emptyEnvelopeSchema };

/** The `:id` of a route's path: a row's opaque id. */
export const idParams = z.object({ id: z.string().max(64) });

/** Rate-limit settings of one route: at most `max` requests a minute from one address. */
export const perMinute = (max: number) => ({ rateLimit: { max, timeWindow: 60_000 } });

/**
 * zod writes a nullable value as `anyOf: [schema, {type: 'null'}]`, which fast-json-stringify resolves with a
 * validator on every answer; as a type list (`type: ['object', 'null']`) it needs none.
 */
function withTypeLists(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withTypeLists);
  if (node === null || typeof node !== 'object') return node;
  const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withTypeLists(value)]));
  const [first, second, ...more] = Array.isArray(copy.anyOf) ? (copy.anyOf as Record<string, unknown>[]) : [];
  if (more.length === 0 && typeof first?.type === 'string' && second?.type === 'null') {
    const { anyOf: _, ...rest } = copy;
    return { ...rest, ...first, type: [first.type, 'null'] };
  }
  return copy;
}

/**
 * For a route polled by every open page (generation progress): its answers are written by fast-json-stringify,
 * compiled once from the zod schema's JSON Schema, instead of zod parsing each answer before JSON.stringify (about
 * 7% of that route's CPU, bench/progress.bench.ts). The output is the same JSON: keys in the schema's order,
 * keys the schema lacks left out. Unlike zod it does not check the answer, so it suits only answers this server
 * builds from its own typed values.
 */
export function compiledSerializer({ schema }: { schema: unknown }): (data: unknown) => string {
  if (!(schema instanceof z.ZodType)) throw new TypeError('compiledSerializer needs a zod response schema');
  return fastJson(withTypeLists(z.toJSONSchema(schema, { io: 'output', target: 'draft-7' })) as object);
}

/**
 * For a route polled by every open page: a body of the usual shape is taken by `accept` (a few typeof and length
 * checks, answering what zod would) instead of a zod parse; anything else (undefined from `accept`) goes to zod, so
 * refusals and their messages stay the same.
 */
export function withFastPath<T extends object>(accept: (body: unknown) => T | undefined) {
  return ({ schema }: { schema: unknown }) => {
    const full = validatorCompiler({ schema } as Parameters<typeof validatorCompiler>[0]);
    return (data: unknown) => {
      const value = accept(data);
      return value === undefined ? full(data) : { value };
    };
  };
}

/** `{ generateId }` as generateIdBodySchema parses it, when no trimming or refusal is needed (else undefined). */
export function plainGenerateId(body: unknown): { generateId: string } | undefined {
  const generateId = (body as { generateId?: unknown } | null)?.generateId;
  if (typeof generateId !== 'string' || generateId.length === 0 || generateId.length > 64) return undefined;
  return generateId.trim() === generateId ? { generateId } : undefined;
}
