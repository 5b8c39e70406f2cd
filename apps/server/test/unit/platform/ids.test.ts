import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/platform/ids.js';

describe('ids', () => {
  it('makes distinct 16-character base64url ids that never begin with - or _', () => {
    const ids = Array.from({ length: 5000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]{15}$/);
    // Every other character still takes all 64 values: the ids keep their randomness.
    expect(new Set(ids.flatMap((id) => [...id.slice(1)])).size).toBe(64);
  });
});
