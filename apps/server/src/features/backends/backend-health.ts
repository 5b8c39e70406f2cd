import type { InferenceEngine } from '../../engines/engine.js';
import { nowIso } from '../../platform/ids.js';
import { ADDRESS_REFUSED, type BackendAddressRules } from './backend-address.js';
import type { BackendAvailability } from './backend-availability.js';
import type { BackendLeases } from './backend-leases.js';
import type { Backend, BackendCatalog, BackendRoster } from './backend-roster.js';

/** A health check that takes longer than this counts as down. */
export const HEALTH_TIMEOUT_MS = 5_000;
/** Scale-out mode: how often a process looks for backends other processes registered when it finds none. */
const RELOAD_ON_MISS_MS = 1_000;

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
 * Whether each backend is up: health checks (periodic and on demand), backends taken out after a failed job, and
 * in scale-out mode the down marks and registrations other processes share.
 */
export class BackendHealth {
  private timer: NodeJS.Timeout | undefined;
  /** Checks in flight: a second caller waits for the same answer instead of asking the server again. */
  private readonly checking = new Map<Backend, Promise<void>>();

  constructor(
    private readonly roster: BackendRoster,
    private readonly addresses: BackendAddressRules,
    private readonly leases: BackendLeases | null,
    private readonly availability: BackendAvailability,
  ) {}

  /** Health checks every interval; in scale-out mode also a look at the rows other processes changed. */
  startHealthChecks(intervalMs: number): void {
    this.stopHealthChecks();
    this.timer = setInterval(() => {
      const reload = this.leases ? this.roster.reload() : Promise.resolve();
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
      this.roster
        .all()
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
    if (health.ok && !wasHealthy) this.availability.available();
  }

  /**
   * Scale-out mode: when nothing here serves a model, another process may have just registered a backend for
   * it; look and check the new ones before answering. Leases ask every LEASE_POLL_MS while a job waits, so they
   * look at most once a second (`always` false); a refusal of a job always looks first, since a look made a
   * moment before the backend was registered (the periodic one, say) would refuse it wrongly.
   */
  async reloadOnMiss(always = false): Promise<void> {
    if (!this.leases || (!always && this.roster.readWithin(RELOAD_ON_MISS_MS))) return;
    const changed = await this.roster.reload();
    await Promise.all(changed.filter((b) => b.enabled).map((b) => this.check(b)));
  }

  /**
   * Scale-out mode: a backend another worker marked down is down here too, and one whose mark a health check
   * (anywhere) cleared is up again.
   */
  async syncDownMarks(): Promise<void> {
    if (!this.leases) return;
    const remote = this.roster.all().filter((b) => !b.local);
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
}
