import type { BackendItem, BackendKind, FormOption } from '@huafang/contracts';
import { BUILTIN_ENGINE_KIND } from '../../engines/builtin/builtin-engine.js';
import type { InferenceEngine } from '../../engines/engine.js';
import { createEngine, type EngineOptions, engineKind } from '../../engines/engine-registry.js';
import { nowIso } from '../../platform/ids.js';
import type { BackendRepository, BackendRow } from './backend.repository.js';
import { ADDRESS_REFUSED, type BackendAddressRules } from './backend-address.js';

/** The built-in backend goes by its kind's name. */
export const BUILTIN_BACKEND_ID: string = BUILTIN_ENGINE_KIND;
/** A health check that takes longer than this counts as down. */
export const HEALTH_TIMEOUT_MS = 5_000;
/** Scale-out mode: how often a process looks for backends other processes registered when it finds none. */
const RELOAD_ON_MISS_MS = 1_000;

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
};

/**
 * What scale-out mode shares between worker processes (Redis): which remote backend runs a job of whose, and
 * which were marked down. Embedded mode has one process and needs none.
 */
export interface BackendLeases {
  /** Takes a remote backend for one job; false when some process holds it. */
  acquire(backendId: string, jobId: string): Promise<boolean>;
  release(backendId: string, jobId: string): Promise<void>;
  /** Of these backends, those held by any process now. */
  held(backendIds: string[]): Promise<Set<string>>;
  /** A backend that failed a job stays out for every worker until the mark expires or a check finds it up. */
  markDown(backendId: string, message: string): Promise<void>;
  clearDown(backendId: string): Promise<void>;
  downMarks(backendIds: string[]): Promise<Map<string, string>>;
  close(): Promise<void>;
}

export async function catalogOf(engine: InferenceEngine): Promise<BackendCatalog> {
  const [samplers, controlNetModules, controlNetModels] = await Promise.all([
    engine.listSamplers(),
    engine.listControlNetModules(),
    engine.listControlNetModels(),
  ]);
  return { samplers, controlNetModules, controlNetModels };
}

export function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The inference backends this process can drive: the built-in engine plus the servers admins registered. It
 * checks their health, picks a free healthy one serving a model, and tracks which are busy; in scale-out mode
 * remote backends are leased through `leases` so two workers never send a job to one server at once.
 */
export class BackendPool {
  private readonly backends = new Map<string, Backend>();
  private timer: NodeJS.Timeout | undefined;
  private reloadedAt = 0;
  /** Counts puts; a reload leaves alone backends put after it read the rows (they are newer than its rows). */
  private puts = 0;
  private readonly putNumber = new Map<string, number>();
  /** Checks in flight: a second caller waits for the same answer instead of asking the server again. */
  private readonly checking = new Map<Backend, Promise<void>>();
  private readonly availableListeners = new Set<() => void>();

  constructor(
    private readonly repo: BackendRepository,
    private readonly addresses: BackendAddressRules,
    private readonly leases: BackendLeases | null = null,
    /** Every remote backend's engine is made with these (BACKEND_TIMEOUT_SECONDS). */
    private readonly engineOptions: EngineOptions = {},
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
    });
  }

  /**
   * Calls `listener` whenever a backend may take work again (became healthy, was added, finished a job); answers
   * the function that stops the calls.
   */
  onAvailable(listener: () => void): () => void {
    this.availableListeners.add(listener);
    return () => this.availableListeners.delete(listener);
  }

  private available(): void {
    for (const listener of this.availableListeners) listener();
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

  allows(baseUrl: string): boolean {
    return this.addresses.allows(baseUrl);
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
      // A row stored before the rules changed is never contacted: check() keeps it down with this message.
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
    };
    this.backends.set(row.id, backend);
    this.putNumber.set(row.id, ++this.puts);
    return backend;
  }

  delete(id: string): void {
    this.backends.delete(id);
    this.putNumber.delete(id);
  }

  /** Loads the registered backends and starts checking them; start-up does not wait for a slow server. */
  async load(): Promise<void> {
    await this.reload();
    void this.checkAll();
  }

  /** Backends admins added, changed or removed through another process since the last look; answers those put. */
  async reload(): Promise<Backend[]> {
    this.reloadedAt = Date.now();
    const putsBefore = this.puts;
    const rows = await this.repo.list();
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

  /** Health checks every interval; in scale-out mode also a look at the rows other processes changed. */
  startHealthChecks(intervalMs: number): void {
    this.stopHealthChecks();
    this.timer = setInterval(() => {
      const reload = this.leases ? this.reload() : Promise.resolve();
      void reload.then(() => this.checkAll()).catch(() => undefined);
    }, intervalMs);
    this.timer.unref();
  }

  stopHealthChecks(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  async checkAll(): Promise<void> {
    await Promise.all(
      this.all()
        .filter((b) => !b.builtin && b.enabled)
        .map((b) => this.check(b)),
    );
  }

  check(backend: Backend): Promise<void> {
    const inFlight = this.checking.get(backend);
    if (inFlight) return inFlight;
    const checked = this.checkNow(backend).finally(() => this.checking.delete(backend));
    this.checking.set(backend, checked);
    return checked;
  }

  private async checkNow(backend: Backend): Promise<void> {
    if (!this.addresses.allows(backend.baseUrl)) {
      backend.healthy = false;
      backend.healthMessage = ADDRESS_REFUSED;
      backend.checkedAt = nowIso();
      return;
    }
    const health = await withTimeout(
      backend.engine.health().catch(() => ({ ok: false, message: '无法连接', busy: false })),
      HEALTH_TIMEOUT_MS,
      { ok: false, message: '健康检查超时', busy: false },
    );
    const wasHealthy = backend.healthy;
    if (health.ok) {
      // A backend whose lists cannot be read keeps the ones it had: the lists only feed form options.
      backend.catalog = await withTimeout(
        catalogOf(backend.engine).catch(() => backend.catalog),
        HEALTH_TIMEOUT_MS,
        backend.catalog,
      );
      await this.leases?.clearDown(backend.id);
    }
    backend.healthy = health.ok;
    backend.markedDown = false;
    backend.healthMessage = health.message;
    backend.checkedAt = nowIso();
    if (health.ok && !wasHealthy) this.available();
  }

  private serves(backend: Backend, kind: string, checkpoint: string): boolean {
    return (
      backend.enabled && backend.kind === kind && (backend.models.length === 0 || backend.models.includes(checkpoint))
    );
  }

  /**
   * Scale-out mode: when nothing here serves a model, another process may have just registered a backend for
   * it; look and check the new ones before answering. Leases ask every LEASE_POLL_MS while a job waits, so they
   * look at most once a second (`always` false); a refusal of a job always looks first, since a look made a
   * moment before the backend was registered (the periodic one, say) would refuse it wrongly.
   */
  private async reloadOnMiss(always = false): Promise<void> {
    if (!this.leases || (!always && Date.now() - this.reloadedAt < RELOAD_ON_MISS_MS)) return;
    const changed = await this.reload();
    await Promise.all(changed.filter((b) => b.enabled).map((b) => this.check(b)));
  }

  /** Whether any enabled backend (up or not) serves the model: if none does, a job for it could never run. */
  async hasCandidate(kind: string, checkpoint: string): Promise<boolean> {
    const serves = () => this.all().some((b) => this.serves(b, kind, checkpoint));
    if (serves()) return true;
    await this.reloadOnMiss(true);
    return serves();
  }

  /** How many healthy backends serve the model: the queue's ETA divides by it. */
  capacity(kind: string, checkpoint: string): number {
    return this.all().filter((b) => b.healthy && this.serves(b, kind, checkpoint)).length;
  }

  /**
   * Healthy backends serving the model and free in this process, best first: one that has not failed this job
   * (`tried`) before one that has, then the one idle longest.
   */
  private candidates(kind: string, checkpoint: string, tried: ReadonlySet<string>): Backend[] {
    const rank = (b: Backend) => (tried.has(b.id) ? 1 : 0);
    return this.all()
      .filter((b) => !b.runningJobId && b.healthy && this.serves(b, kind, checkpoint))
      .sort((a, b) => rank(a) - rank(b) || a.lastFinishedAt - b.lastFinishedAt);
  }

  /** Embedded mode: the best free backend, taken for the job at once (one process, nothing to lease). */
  occupyFree(kind: string, checkpoint: string, jobId: string, tried: ReadonlySet<string> = new Set()): Backend | null {
    const backend = this.candidates(kind, checkpoint, tried)[0] ?? null;
    if (backend) backend.runningJobId = jobId;
    return backend;
  }

  /**
   * Scale-out mode: the best backend no process holds, leased for the job (local engines need no lease). Backends
   * another worker marked down are skipped.
   */
  async lease(kind: string, checkpoint: string, jobId: string, tried: ReadonlySet<string>): Promise<Backend | null> {
    if (this.candidates(kind, checkpoint, tried).length === 0) await this.reloadOnMiss();
    await this.syncDownMarks();
    for (const backend of this.candidates(kind, checkpoint, tried)) {
      // Taken for this process first, so a concurrent lease here does not try it too.
      backend.runningJobId = jobId;
      if (backend.local || !this.leases || (await this.leases.acquire(backend.id, jobId))) return backend;
      backend.runningJobId = null;
    }
    return null;
  }

  async release(backend: Backend, jobId: string): Promise<void> {
    backend.runningJobId = null;
    backend.lastFinishedAt = Date.now();
    if (!backend.local) await this.leases?.release(backend.id, jobId);
    this.available();
  }

  /**
   * Scale-out mode: a backend another worker marked down is down here too, and one whose mark a health check
   * (anywhere) cleared is up again.
   */
  private async syncDownMarks(): Promise<void> {
    if (!this.leases) return;
    const remote = this.all().filter((b) => !b.local);
    const marks = await this.leases.downMarks(remote.map((b) => b.id));
    for (const backend of remote) {
      const message = marks.get(backend.id);
      if (message !== undefined) {
        backend.healthy = false;
        backend.markedDown = true;
        backend.healthMessage = message;
      } else if (backend.markedDown) {
        backend.healthy = true;
        backend.markedDown = false;
        backend.healthMessage = '正常';
      }
    }
  }

  /** A backend that failed a job is taken out until the next health check finds it up. */
  async markDown(backend: Backend, message: string): Promise<void> {
    if (backend.builtin) return;
    backend.healthy = false;
    backend.markedDown = true;
    backend.healthMessage = message;
    backend.checkedAt = nowIso();
    await this.leases?.markDown(backend.id, message);
  }

  async list(): Promise<BackendItem[]> {
    // Another API process may have just added or changed a backend: the admin's list follows the rows, not this
    // process's last look (a new one is checked before it is listed, so its health is known).
    await this.reloadOnMiss(true);
    // One put by another request's reload may still be on its first check: its health is known after it.
    await Promise.all(
      this.all()
        .filter((b) => b.enabled && !b.builtin && b.checkedAt === null)
        .map((b) => this.check(b)),
    );
    await this.syncDownMarks();
    const remote = this.all().filter((b) => !b.local);
    const held = this.leases ? await this.leases.held(remote.map((b) => b.id)) : new Set<string>();
    return this.all().map((b) => ({
      id: b.id,
      name: b.name,
      kind: b.kind,
      baseUrl: b.baseUrl,
      username: b.username,
      hasSecret: b.hasSecret,
      models: b.models,
      enabled: b.enabled,
      healthy: b.healthy,
      healthMessage: b.healthMessage,
      checkedAt: b.checkedAt,
      busy: b.runningJobId !== null || held.has(b.id),
      builtin: b.builtin,
    }));
  }

  async close(): Promise<void> {
    this.stopHealthChecks();
    await Promise.allSettled(this.all().map((b) => b.engine.close?.()));
    await this.leases?.close();
  }
}
