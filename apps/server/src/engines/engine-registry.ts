import { BACKEND_KIND_LABELS, type BackendKind } from '@huafang/contracts';
import { BuiltinEngine } from './builtin/builtin-engine.js';
import { ComfyUiEngine } from './comfyui/comfyui-engine.js';
import type { InferenceEngine } from './engine.js';
import { SdWebUiEngine } from './sdwebui/sdwebui-engine.js';
import { engineThreadEntry, ThreadedEngine } from './threaded-engine.js';

/** Where a registered backend is and how to sign in to it, as an admin entered it. */
export type EngineAddress = { name: string; baseUrl: string; username: string | null; secret: string | null };

/**
 * What the operator sets for every remote backend. `timeoutMs` (BACKEND_TIMEOUT_SECONDS): how long a backend may
 * stay silent on a job before it counts as failed (retryable: the job moves to another backend). A1111 answers a
 * generation only when done, so it bounds that request; ComfyUI reports as it goes, so it bounds the whole job and
 * caps each request. Absent: each engine's default (10 minutes).
 */
export type EngineOptions = { timeoutMs?: number };

/** ComfyUI's own bound on one request (uploads, history, images); BACKEND_TIMEOUT_SECONDS only lowers it. */
const COMFYUI_REQUEST_TIMEOUT_MS = 30_000;

type EngineKindEntry = {
  label: string;
  /**
   * Runs inside our own process (each API or worker process has its own): busy only for this process's jobs,
   * so it is never leased across processes. Remote servers are shared by every worker.
   */
  local: boolean;
  create(address: EngineAddress, options?: EngineOptions): InferenceEngine;
};

/** Every engine kind, in one place: adding one is adding an entry here (and its name to the contracts). */
const ENGINE_KINDS: Record<BackendKind, EngineKindEntry> = {
  builtin: {
    label: BACKEND_KIND_LABELS.builtin,
    local: true,
    create: () =>
      new ThreadedEngine(new BuiltinEngine(), engineThreadEntry(import.meta.url, './builtin/builtin-thread')),
  },
  sdwebui: {
    label: BACKEND_KIND_LABELS.sdwebui,
    local: false,
    create: (a, options = {}) =>
      new SdWebUiEngine({
        baseUrl: a.baseUrl,
        username: a.username ?? undefined,
        password: a.secret ?? undefined,
        label: a.name,
        requestTimeoutMs: options.timeoutMs,
      }),
  },
  comfyui: {
    label: BACKEND_KIND_LABELS.comfyui,
    local: false,
    create: (a, { timeoutMs } = {}) =>
      new ComfyUiEngine({
        baseUrl: a.baseUrl,
        token: a.secret ?? undefined,
        label: a.name,
        jobTimeoutMs: timeoutMs,
        requestTimeoutMs: timeoutMs === undefined ? undefined : Math.min(COMFYUI_REQUEST_TIMEOUT_MS, timeoutMs),
      }),
  },
};

/** The entry of a kind; a kind nobody registered (a row written by a newer version, a typo) is an error. */
export function engineKind(kind: string): EngineKindEntry & { kind: BackendKind } {
  if (!Object.hasOwn(ENGINE_KINDS, kind)) throw new Error(`Unknown engine kind: ${kind}`);
  return { kind: kind as BackendKind, ...ENGINE_KINDS[kind as BackendKind] };
}

export function createEngine(kind: string, address: EngineAddress, options: EngineOptions = {}): InferenceEngine {
  return engineKind(kind).create(address, options);
}
