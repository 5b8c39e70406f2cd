import { ENGINE_KIND_IDS, ENGINE_KINDS, type EngineKind, isEngineKind } from '@huafang/contracts';
import type { CreateEngine, EngineAddress, EngineOptions, InferenceEngine } from './engine.js';

export type { EngineAddress, EngineOptions } from './engine.js';

type EngineKindEntry = {
  kind: EngineKind;
  label: string;
  /**
   * Runs inside our own process (each API or worker process has its own): busy only for this process's jobs,
   * so it is never leased across processes. Remote servers are shared by every worker.
   */
  local: boolean;
  create: CreateEngine;
};

/**
 * A kind's engine is made by its folder: `engines/<kind>/index.ts` exports `create`. The kinds themselves are
 * listed once, in ENGINE_KINDS (contracts), so adding a kind is its entry there and its folder here.
 */
async function load(kind: EngineKind): Promise<EngineKindEntry> {
  // Spelt with `.ts`: the build bundles every engines/*/index.ts under that name, and tsx and vitest load it as is.
  const folder: { create?: unknown } = await import(`./${kind}/index.ts`);
  if (typeof folder.create !== 'function') throw new Error(`engines/${kind}/index.ts does not export create`);
  return {
    kind,
    label: ENGINE_KINDS[kind].label,
    local: !ENGINE_KINDS[kind].remote,
    create: folder.create as CreateEngine,
  };
}

/** Every kind, loaded as the process starts: a listed kind without its folder stops it there. */
const REGISTERED = new Map((await Promise.all(ENGINE_KIND_IDS.map(load))).map((entry) => [entry.kind, entry]));

/** The entry of a kind; a kind nobody registered (a row written by a newer version, a typo) is an error. */
export function engineKind(kind: string): EngineKindEntry {
  const entry = isEngineKind(kind) ? REGISTERED.get(kind) : undefined;
  if (!entry) throw new Error(`Unknown engine kind: ${kind}`);
  return entry;
}

export function createEngine(kind: string, address: EngineAddress, options: EngineOptions = {}): InferenceEngine {
  return engineKind(kind).create(address, options);
}
