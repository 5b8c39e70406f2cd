import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as contracts from '../src/index.js';

/** Every field name inside a schema, nested objects, arrays, unions and wrappers included. */
function fieldNames(schema: z.core.$ZodType, into = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  if (seen.has(schema)) return into;
  seen.add(schema);
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  const walk = (inner: unknown) => {
    if (inner && typeof inner === 'object' && '_zod' in inner) fieldNames(inner as z.core.$ZodType, into, seen);
  };
  if (def.type === 'object') {
    for (const [name, inner] of Object.entries(def.shape as Record<string, unknown>)) {
      into.add(name);
      walk(inner);
    }
  }
  if (def.type === 'lazy') walk((def.getter as () => unknown)());
  for (const key of ['innerType', 'element', 'in', 'out', 'left', 'right', 'valueType', 'catchall']) walk(def[key]);
  for (const key of ['options', 'items']) if (Array.isArray(def[key])) for (const inner of def[key]) walk(inner);
  return into;
}

/** What a client sends: bodies, query strings, route parameters and step inputs. */
const requestSchemas = Object.entries(contracts).filter(
  ([name, value]) =>
    /(Body|Query|Params|Input)Schema$/.test(name) && value && typeof value === 'object' && '_zod' in value,
) as [string, z.core.$ZodType][];

describe('contracts: every request field has a Chinese label for validation messages', () => {
  it('finds the request schemas and their fields', () => {
    expect(requestSchemas.length).toBeGreaterThan(60);
    expect(fieldNames(contracts.backendBodySchema)).toEqual(
      new Set(['name', 'kind', 'baseUrl', 'username', 'secret', 'models', 'enabled']),
    );
  });

  it('labels every field of every request schema in Chinese (a new field without a label fails here)', () => {
    const missing: string[] = [];
    for (const [schemaName, schema] of requestSchemas) {
      for (const field of fieldNames(schema)) {
        const label = Object.hasOwn(contracts.FIELD_LABELS, field) ? contracts.FIELD_LABELS[field] : undefined;
        if (!label || !/\p{Script=Han}/u.test(label)) missing.push(`${schemaName}.${field}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
