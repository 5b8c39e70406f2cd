import type { BackendItem, BackendKind, backendBodySchema, FormOption } from '@huafang/contracts';
import type { z } from 'zod';
import type { EngineModel, InferenceEngine } from '../../engines/engine.js';
import { fail, notFound } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import type { BackendRepository, BackendRow } from './backend.repository.js';
import { ADDRESS_REFUSED, type BackendAddressRules } from './backend-address.js';

export const BUILTIN_BACKEND_ID = 'builtin';
/** A health check that takes longer than this counts as down. */
const HEALTH_TIMEOUT_MS = 5_000;

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
  healthMessage: string;
  checkedAt: string | null;
  /** The one job it runs now (A1111 and ComfyUI run one job at a time per process). */
  runningJobId: string | null;
  /** When it last finished a job: among idle backends the one idle longest goes first. */
  lastFinishedAt: number;
  builtin: boolean;
  /** What it offers, read at each successful health check (null until then). */
  catalog: BackendCatalog | null;
};

/** The choices a backend offers for the form's option sources. */
export type BackendCatalog = { samplers: string[]; controlNetModules: FormOption[]; controlNetModels: string[] };

async function catalogOf(engine: InferenceEngine): Promise<BackendCatalog> {
  const [samplers, controlNetModules, controlNetModels] = await Promise.all([
    engine.listSamplers(),
    engine.listControlNetModules(),
    engine.listControlNetModels(),
  ]);
  return { samplers, controlNetModules, controlNetModels };
}

/** Values of several lists once each, in first-seen order. */
function union<T>(lists: T[][], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of lists.flat()) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

type EngineFactory = (row: BackendRow) => InferenceEngine;
type Body = z.output<typeof backendBodySchema>;

function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The inference backends: the built-in engine (always there in embedded mode) plus the servers admins
 * register. Health is checked periodically; the queue asks for a free healthy backend serving a model.
 */
export class BackendRegistry {
  private readonly backends = new Map<string, Backend>();
  private timer: NodeJS.Timeout | undefined;
  /** Called when a backend may take work again (became healthy, was added, finished a job). */
  onAvailable: () => void = () => {};

  constructor(
    private readonly repo: BackendRepository,
    private readonly engineFor: EngineFactory,
    builtin: InferenceEngine,
    private readonly addresses: BackendAddressRules,
  ) {
    this.backends.set(BUILTIN_BACKEND_ID, {
      id: BUILTIN_BACKEND_ID,
      name: builtin.label,
      kind: 'builtin',
      baseUrl: '',
      username: null,
      hasSecret: false,
      engine: builtin,
      models: [],
      enabled: true,
      healthy: true,
      healthMessage: '正常',
      checkedAt: null,
      runningJobId: null,
      lastFinishedAt: 0,
      builtin: true,
      catalog: null,
    });
  }

  private fromRow(row: BackendRow): Backend {
    const previous = this.backends.get(row.id);
    return {
      id: row.id,
      name: row.name,
      kind: row.kind as BackendKind,
      baseUrl: row.base_url,
      username: row.username,
      hasSecret: Boolean(row.secret),
      engine: this.engineFor(row),
      models: JSON.parse(row.models) as string[],
      enabled: row.enabled === 1,
      healthy: false,
      // A row stored before the rules changed is never contacted: check() keeps it down with this message.
      healthMessage: this.addresses.allows(row.base_url) ? '尚未检查' : ADDRESS_REFUSED,
      checkedAt: null,
      runningJobId: previous?.runningJobId ?? null,
      lastFinishedAt: previous?.lastFinishedAt ?? 0,
      builtin: false,
      catalog: previous?.catalog ?? null,
    };
  }

  /** Loads the registered backends and starts checking them; start-up does not wait for a slow server. */
  async load(): Promise<void> {
    for (const row of await this.repo.list()) this.backends.set(row.id, this.fromRow(row));
    void this.checkAll();
  }

  startHealthChecks(intervalMs: number): void {
    this.stopHealthChecks();
    this.timer = setInterval(() => void this.checkAll(), intervalMs);
    this.timer.unref();
  }

  stopHealthChecks(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  async checkAll(): Promise<void> {
    await Promise.all([...this.backends.values()].filter((b) => !b.builtin && b.enabled).map((b) => this.check(b)));
  }

  private async check(backend: Backend): Promise<void> {
    if (!this.addresses.allows(backend.baseUrl)) {
      this.markDown(backend, ADDRESS_REFUSED);
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
    }
    backend.healthy = health.ok;
    backend.healthMessage = health.message;
    backend.checkedAt = nowIso();
    if (health.ok && !wasHealthy) this.onAvailable();
  }

  private serves(backend: Backend, kind: string, checkpoint: string): boolean {
    return (
      backend.enabled && backend.kind === kind && (backend.models.length === 0 || backend.models.includes(checkpoint))
    );
  }

  /** Whether any enabled backend (up or not) serves the model: if none does, a job for it could never run. */
  hasCandidate(kind: string, checkpoint: string): boolean {
    return [...this.backends.values()].some((b) => this.serves(b, kind, checkpoint));
  }

  /** How many healthy backends serve the model: the queue's ETA divides by it. */
  capacity(kind: string, checkpoint: string): number {
    return [...this.backends.values()].filter((b) => b.healthy && this.serves(b, kind, checkpoint)).length;
  }

  /**
   * A free, healthy backend serving the model: one that has not failed this job (`tried`) before one that has,
   * then the one idle longest.
   */
  pickFree(kind: string, checkpoint: string, tried: ReadonlySet<string> = new Set()): Backend | null {
    let best: Backend | null = null;
    const rank = (b: Backend) => [tried.has(b.id) ? 1 : 0, b.lastFinishedAt] as const;
    for (const backend of this.backends.values()) {
      if (backend.runningJobId || !backend.healthy || !this.serves(backend, kind, checkpoint)) continue;
      if (!best) {
        best = backend;
        continue;
      }
      const [triedA, idleA] = rank(backend);
      const [triedB, idleB] = rank(best);
      if (triedA < triedB || (triedA === triedB && idleA < idleB)) best = backend;
    }
    return best;
  }

  /**
   * The form's option lists: the built-in engine's plus those of every enabled backend, so a template can offer
   * what the GPU servers have. Read from memory; health checks refresh them.
   */
  async options(): Promise<BackendCatalog> {
    const builtin = this.backends.get(BUILTIN_BACKEND_ID)!;
    builtin.catalog ??= await catalogOf(builtin.engine);
    const catalogs = [...this.backends.values()].flatMap((b) => (b.enabled && b.catalog ? [b.catalog] : []));
    return {
      samplers: union(
        catalogs.map((c) => c.samplers),
        (name) => name,
      ),
      controlNetModules: union(
        catalogs.map((c) => c.controlNetModules),
        (option) => String(option.value),
      ),
      controlNetModels: union(
        catalogs.map((c) => c.controlNetModels),
        (name) => name,
      ),
    };
  }

  /**
   * The engine that previews a ControlNet preprocessor: the built-in engine when it has the module, else a
   * healthy enabled backend that lists it (previews are short and do not wait for the backend to be free).
   */
  async preprocessorEngine(module: string): Promise<InferenceEngine | null> {
    const offers = (catalog: BackendCatalog | null) =>
      catalog?.controlNetModules.some((option) => String(option.value) === module) ?? false;
    const builtin = this.backends.get(BUILTIN_BACKEND_ID)!;
    builtin.catalog ??= await catalogOf(builtin.engine);
    if (offers(builtin.catalog)) return builtin.engine;
    for (const backend of this.backends.values()) {
      if (backend.enabled && backend.healthy && offers(backend.catalog)) return backend.engine;
    }
    return null;
  }

  occupy(backend: Backend, jobId: string): void {
    backend.runningJobId = jobId;
  }

  release(backend: Backend): void {
    backend.runningJobId = null;
    backend.lastFinishedAt = Date.now();
    this.onAvailable();
  }

  /** A backend that failed a job is taken out until the next health check finds it up. */
  markDown(backend: Backend, message: string): void {
    if (backend.builtin) return;
    backend.healthy = false;
    backend.healthMessage = message;
    backend.checkedAt = nowIso();
  }

  list(): BackendItem[] {
    return [...this.backends.values()].map((b) => ({
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
      busy: b.runningJobId !== null,
      builtin: b.builtin,
    }));
  }

  private item(id: string): BackendItem {
    const found = this.list().find((b) => b.id === id);
    if (!found) throw notFound('推理后端不存在');
    return found;
  }

  private allowedAddress(baseUrl: string): string {
    if (!this.addresses.allows(baseUrl)) throw fail(`后端${ADDRESS_REFUSED}，请联系运维人员`);
    return baseUrl.replace(/\/+$/, '');
  }

  async create(body: Body): Promise<BackendItem> {
    const baseUrl = this.allowedAddress(body.baseUrl);
    const now = nowIso();
    const row: BackendRow = {
      id: newId(),
      name: body.name,
      kind: body.kind,
      base_url: baseUrl,
      username: body.username || null,
      secret: body.secret || null,
      models: JSON.stringify(body.models),
      enabled: body.enabled ? 1 : 0,
      created_at: now,
      updated_at: now,
    };
    await this.repo.insert(row);
    const backend = this.fromRow(row);
    this.backends.set(row.id, backend);
    if (backend.enabled) await this.check(backend);
    return this.item(row.id);
  }

  private editable(id: string): Backend {
    const backend = this.backends.get(id);
    if (!backend) throw notFound('推理后端不存在');
    if (backend.builtin) throw fail('内置演示引擎不能修改或删除');
    return backend;
  }

  async update(id: string, body: Body): Promise<BackendItem> {
    this.editable(id);
    const baseUrl = this.allowedAddress(body.baseUrl);
    const stored = await this.repo.find(id);
    if (!stored) throw notFound('推理后端不存在');
    const row: BackendRow = {
      ...stored,
      name: body.name,
      kind: body.kind,
      base_url: baseUrl,
      username: body.username || null,
      // Absent keeps the stored secret; an empty string clears it.
      secret: body.secret === undefined || body.secret === null ? stored.secret : body.secret || null,
      models: JSON.stringify(body.models),
      enabled: body.enabled ? 1 : 0,
      updated_at: nowIso(),
    };
    await this.repo.update(id, row);
    const backend = this.fromRow(row);
    this.backends.set(id, backend);
    if (backend.enabled) await this.check(backend);
    return this.item(id);
  }

  async remove(id: string): Promise<void> {
    const backend = this.editable(id);
    if (backend.runningJobId) throw fail('该后端正在运行任务，请稍后再删除或先停用');
    await this.repo.remove(id);
    this.backends.delete(id);
  }

  /**
   * The checkpoints a backend reports now (A1111 sd-models, ComfyUI CheckpointLoaderSimple), for 从后端导入.
   * An unreachable backend is a business failure naming it, so the admin sees why the list is empty.
   */
  async checkpoints(id: string): Promise<{ kind: BackendKind; models: EngineModel[] }> {
    const backend = this.backends.get(id);
    if (!backend) throw notFound('推理后端不存在');
    if (!this.addresses.allows(backend.baseUrl) && !backend.builtin) throw fail(`后端${ADDRESS_REFUSED}`);
    const timedOut = Symbol('timeout');
    const models = await withTimeout<EngineModel[] | typeof timedOut>(
      backend.engine.listModels().catch((error: unknown) => {
        throw fail(`读取「${backend.name}」的模型列表失败：${error instanceof Error ? error.message : '无法连接'}`);
      }),
      HEALTH_TIMEOUT_MS,
      timedOut,
    );
    if (models === timedOut) throw fail(`读取「${backend.name}」的模型列表超时，请稍后再试`);
    return { kind: backend.kind, models };
  }

  /**
   * A backend limited to some checkpoints also serves the ones just imported from it; one that serves every
   * checkpoint of its kind (an empty list) stays so.
   */
  async serveCheckpoints(id: string, titles: string[]): Promise<void> {
    const backend = this.backends.get(id);
    if (!backend || backend.builtin || backend.models.length === 0) return;
    const missing = titles.filter((title) => !backend.models.includes(title));
    if (missing.length === 0) return;
    backend.models = [...backend.models, ...missing];
    await this.repo.update(id, { models: JSON.stringify(backend.models), updated_at: nowIso() });
  }

  /** 检测: checks one backend now and answers its state. */
  async test(id: string): Promise<BackendItem> {
    const backend = this.backends.get(id);
    if (!backend) throw notFound('推理后端不存在');
    if (!backend.builtin) await this.check(backend);
    return this.item(id);
  }
}
