import { generateIdBodySchema } from '@huafang/contracts';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { expect, it } from 'vitest';
import { plainGenerateId, withFastPath } from '../../../src/platform/route-schemas.js';

const route = { schema: generateIdBodySchema, method: 'POST', url: '/api/generate/task/progress', httpPart: 'body' };
const fast = withFastPath(plainGenerateId)(route);
const viaZod = validatorCompiler(route);

it('answers every progress body exactly as the zod validator does, refusals and their messages included', () => {
  const bodies: unknown[] = [
    { generateId: 'AbC_-123' },
    { generateId: 'x'.repeat(64) },
    { generateId: 'x'.repeat(65) },
    { generateId: '' },
    { generateId: '   ' },
    { generateId: ' padded ' },
    { generateId: 'tab\t' },
    { generateId: 42 },
    { generateId: null },
    { generateId: 'g1', extra: 'dropped' },
    {},
    null,
    'g1',
    [],
    undefined,
  ];
  for (const body of bodies) expect(fast(body), JSON.stringify(body)).toEqual(viaZod(body));
});

it('takes the usual body without zod, and leaves everything else to it', () => {
  expect(plainGenerateId({ generateId: 'g1', extra: 1 })).toEqual({ generateId: 'g1' });
  expect(plainGenerateId({ generateId: ' g1' })).toBeUndefined();
  expect(plainGenerateId({ generateId: 'x'.repeat(65) })).toBeUndefined();
});
