import type { BackendKind, FormOption } from '@huafang/contracts';
import { BUILTIN_ENGINE_KIND } from '../../engines/builtin/builtin-engine.js';
import { BUILTIN_LORAS } from '../../engines/builtin/catalog.js';
import type { InferenceEngine } from '../../engines/engine.js';
import { createEngine, type EngineOptions, engineKind } from '../../engines/engine-registry.js';
import type { BackendRepository, BackendRow } from './backend.repository.js';
import { ADDRESS_REFUSED, type BackendAddressRules } from './backend-address.js';

/** The built-in backend goes by its kind's name. */
const BUILTIN_BACKEND_ID: string = BUILTIN_ENGINE_KIND;

/** The choices a backend offers for the form's option sources. */
export type BackendCatalog = { samplers: string[]; controlNetModules: FormOption[]; controlNetModels: string[] };

/** A backend as the queue sees it: its engine, what it serves, whether it is up and whether it is busy. */
export type Backend = {
  id: string;
  name: string;
  kind: BackendKind;
  baseUrl: string;
  username: string | null;
  hasSecret: boolean;
  engine: InferenceEngine;
  /** Checkpoints served; empty = every model of its kind. */
  models: string[];
  enabled: boolean;
  healthy: boolean;
  /** Down because a job failed on it (not a failed check): in scale-out mode shared with every process. */
  markedDown: boolean;
  healthMessage: string;
  checkedAt: string | null;
  /** The one job this process runs on it now (A1111 and ComfyUI run one job at a time per server). */
  runningJobId: string | null;
  /** When it last finished a job: among idle backends the one idle longest goes first. */
  lastFinishedAt: number;
  builtin: boolean;
  /** Runs inside this process (the built-in engine): never leased across processes. */
  local: boolean;
  /** What it offers, read at each successful health check (null until then). */
  catalog: BackendCatalog | null;
  /** Checkpoints its last 同步 found (as checkpointKey); null: never synced, so any checkpoint of `models` is taken on trust. */
  syncedCheckpoints: Set<string> | null;
  /** LoRAs it has: the last 同步's (the built-in engine: its catalogue); null: unknown, so no LoRA job goes there. */
  loras: Set<string> | null;
};

/** What the backends reported at their last 同步, by backend id. */
/**
 * A checkpoint as placement compares it: A1111 lists `name.safetensors [6ce0161689]` and takes the bare name too, as
 * an admin may have typed it.
 */
export const checkpointKey = (title: string) => title.replace(/\s*\[[0-9a-fA-F]{6,}\]\s*$/, '');

export type SyncedAssets = Map<string, { checkpoints: Set<string>; loras: Set<string> }>;

/**
 * The backends this process knows: the built-in engine plus one per stored row, kept in step with the rows (which
 * admins change through any process) while what this process learnt of each (health, busy, catalogue) carries over.
 */
export class BackendRoster {
  private readonly backends = new Map<string, Backend>();
  private reloadedAt = 0;
  /** Counts puts; a reload leaves alone backends put after it read the rows (they are newer than its rows). */
  private puts = 0;
  private readonly putNumber = new Map<string, number>();

  constructor(
    private readonly repo: BackendRepository,
    private readonly addresses: BackendAddressRules,
    /** Every remote backend's engine is made with these (BACKEND_TIMEOUT_SECONDS). */
    private readonly engineOptions: EngineOptions,
  ) {
    const builtin = engineKind(BUILTIN_ENGINE_KIND);
    this.backends.set(BUILTIN_BACKEND_ID, {
      id: BUILTIN_BACKEND_ID,
      name: builtin.label,
      kind: builtin.kind,
      baseUrl: '',
      username: null,
      hasSecret: false,
      engine: builtin.create({ name: builtin.label, baseUrl: '', username: null, secret: null }, {}),
      models: [],
      enabled: true,
      healthy: true,
      markedDown: false,
      healthMessage: '正常',
      checkedAt: null,
      runningJobId: null,
      lastFinishedAt: 0,
      builtin: true,
      local: true,
      catalog: null,
      syncedCheckpoints: null,
      loras: new Set(BUILTIN_LORAS.map((lora) => lora.title)),
    });
  }

  get builtin(): Backend {
    return this.backends.get(BUILTIN_BACKEND_ID)!;
  }

  get(id: string): Backend | undefined {
    return this.backends.get(id);
  }

  all(): Backend[] {
    return [...this.backends.values()];
  }

  /** Whether the rows were read less than `ms` ago. */
  readWithin(ms: number): boolean {
    return Date.now() - this.reloadedAt < ms;
  }

  /** A backend from its stored row; what this process knows of it (busy, catalogue) carries over. */
  put(row: BackendRow): Backend {
    const previous = this.backends.get(row.id);
    const unchanged =
      previous &&
      previous.kind === row.kind &&
      previous.baseUrl === row.base_url &&
      previous.username === row.username &&
      previous.hasSecret === Boolean(row.secret);
    const backend: Backend = {
      id: row.id,
      name: row.name,
      kind: engineKind(row.kind).kind,
      baseUrl: row.base_url,
      username: row.username,
      hasSecret: Boolean(row.secret),
      engine: createEngine(
        row.kind,
        { name: row.name, baseUrl: row.base_url, username: row.username, secret: row.secret },
        this.engineOptions,
      ),
      models: JSON.parse(row.models) as string[],
      enabled: row.enabled === 1,
      healthy: unchanged ? previous.healthy : false,
      markedDown: unchanged ? previous.markedDown : false,
      // A row stored before the rules changed is never contacted: a check keeps it down with this message.
      healthMessage: !this.addresses.allows(row.base_url)
        ? ADDRESS_REFUSED
        : unchanged
          ? previous.healthMessage
          : '尚未检查',
      checkedAt: unchanged ? previous.checkedAt : null,
      runningJobId: previous?.runningJobId ?? null,
      lastFinishedAt: previous?.lastFinishedAt ?? 0,
      builtin: false,
      local: engineKind(row.kind).local,
      catalog: previous?.catalog ?? null,
      // What the last sync stored stays until the next one (after a change of address, the admin syncs again).
      syncedCheckpoints: previous?.syncedCheckpoints ?? null,
      loras: previous?.loras ?? null,
    };
    this.backends.set(row.id, backend);
    this.putNumber.set(row.id, ++this.puts);
    return backend;
  }

  delete(id: string): void {
    this.backends.delete(id);
    this.putNumber.delete(id);
  }

  /** What a 同步 found on a backend (any process's: reloads read the stored ones). */
  setAssets(id: string, assets: { checkpoints: Set<string>; loras: Set<string> }): void {
    const backend = this.backends.get(id);
    if (!backend || backend.builtin) return;
    backend.syncedCheckpoints = new Set([...assets.checkpoints].map(checkpointKey));
    backend.loras = assets.loras;
  }

  /** Backends admins added, changed or removed through another process since the last look; answers those put. */
  async reload(): Promise<Backend[]> {
    this.reloadedAt = Date.now();
    const putsBefore = this.puts;
    const [rows, synced] = await Promise.all([this.repo.list(), this.repo.syncedAssets()]);
    const ids = new Set(rows.map((row) => row.id));
    for (const backend of this.backends.values()) {
      const newer = (this.putNumber.get(backend.id) ?? 0) > putsBefore;
      if (!backend.builtin && !ids.has(backend.id) && !newer) this.delete(backend.id);
    }
    const changed: Backend[] = [];
    for (const row of rows) {
      const known = this.backends.get(row.id);
      if (
        !known ||
        known.name !== row.name ||
        JSON.stringify(known.models) !== row.models ||
        this.changed(known, row)
      ) {
        changed.push(this.put(row));
      }
      const assets = synced.get(row.id);
      if (assets) this.setAssets(row.id, assets);
    }
    return changed;
  }

  private changed(known: Backend, row: BackendRow): boolean {
    return (
      known.enabled !== (row.enabled === 1) ||
      known.kind !== row.kind ||
      known.baseUrl !== row.base_url ||
      known.username !== row.username ||
      known.hasSecret !== Boolean(row.secret)
    );
  }
}
