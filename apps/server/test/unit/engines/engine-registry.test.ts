import { ENGINE_KIND_IDS, ENGINE_KINDS } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { createEngine, engineKind } from '../../../src/engines/engine-registry.js';

const address = { name: '东区', baseUrl: 'http://127.0.0.1:9', username: null, secret: null };

describe('engine registry', () => {
  it.each(ENGINE_KIND_IDS)('makes a %s engine from its folder, named and placed as ENGINE_KINDS says', async (kind) => {
    const entry = engineKind(kind);
    expect(entry).toMatchObject({ kind, label: ENGINE_KINDS[kind].label, local: !ENGINE_KINDS[kind].remote });
    const engine = createEngine(kind, address);
    expect(engine.kind).toBe(kind);
    await engine.close?.();
  });

  it('refuses a kind nobody registered', () => {
    expect(() => engineKind('midjourney')).toThrow('Unknown engine kind: midjourney');
    expect(() => engineKind('toString')).toThrow('Unknown engine kind: toString');
  });
});
