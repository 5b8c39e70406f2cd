import type { BackendItem } from '@huafang/contracts';
import type { EngineOptions } from '../../engines/engine-registry.js';
import type { BackendRepository, BackendRow } from './backend.repository.js';
import type { BackendAddressRules } from './backend-address.js';
import { BackendAvailability } from './backend-availability.js';
import { BackendHealth } from './backend-health.js';
import type { BackendLeases } from './backend-leases.js';
import { BackendPlacement } from './backend-placement.js';
import { type Backend, BackendRoster } from './backend-roster.js';

// The queues and the modes name a backend and the leases by the pool they come from.
export type { BackendLeases } from './backend-leases.js';
export type { Backend } from './backend-roster.js';

/**
 * The inference backends this process can drive: the built-in engine plus the servers admins registered. One
 * front for the queues and the admin area over the parts that do the work: the roster of backends, their health,
 * the placement of jobs on them and who hears that one is free.
 */
export class BackendPool {
  private readonly roster: BackendRoster;
  private readonly availability = new BackendAvailability();
  private readonly health: BackendHealth;
  private readonly placement: BackendPlacement;

  constructor(
    repo: BackendRepository,
    private readonly addresses: BackendAddressRules,
    private readonly leases: BackendLeases | null = null,
    /** Every remote backend's engine is made with these (BACKEND_TIMEOUT_SECONDS). */
    engineOptions: EngineOptions = {},
  ) {
    this.roster = new BackendRoster(repo, addresses, engineOptions);
    this.health = new BackendHealth(this.roster, addresses, leases, this.availability);
    this.placement = new BackendPlacement(this.roster, this.health, leases, this.availability);
  }

  /**
   * Calls `listener` whenever a backend may take work again (became healthy, was added, finished a job); answers
   * the function that stops the calls.
   */
  onAvailable(listener: () => void): () => void {
    return this.availability.onAvailable(listener);
  }

  get builtin(): Backend {
    return this.roster.builtin;
  }

  get(id: string): Backend | undefined {
    return this.roster.get(id);
  }

  all(): Backend[] {
    return this.roster.all();
  }

  allows(baseUrl: string): boolean {
    return this.addresses.allows(baseUrl);
  }

  /** A backend from its stored row; what this process knows of it (busy, catalogue) carries over. */
  put(row: BackendRow): Backend {
    return this.roster.put(row);
  }

  delete(id: string): void {
    this.roster.delete(id);
  }

  /** Loads the registered backends and starts checking them; start-up does not wait for a slow server. */
  async load(): Promise<void> {
    await this.roster.reload();
    void this.health.checkAll();
  }

  /** Health checks every interval; in scale-out mode also a look at the rows other processes changed. */
  startHealthChecks(intervalMs: number): void {
    this.health.startHealthChecks(intervalMs);
  }

  stopHealthChecks(): void {
    this.health.stopHealthChecks();
  }

  check(backend: Backend): Promise<void> {
    return this.health.check(backend);
  }

  /** A backend that failed a job is taken out until the next health check finds it up. */
  markDown(backend: Backend, message: string): Promise<void> {
    return this.health.markDown(backend, message);
  }

  /** Names of the enabled backends that serve a checkpoint (by the admin's list and the last sync). */
  serverNames(kind: string, checkpoint: string): string[] {
    return this.placement.servers(kind, checkpoint).map((b) => b.name);
  }

  /** Whether any enabled backend (up or not) serves the model: if none does, a job for it could never run. */
  hasCandidate(kind: string, checkpoint: string, loras: readonly string[] = []): Promise<boolean> {
    return this.placement.hasCandidate(kind, checkpoint, loras);
  }

  /** How many healthy backends serve the model: the queue's ETA divides by it. */
  capacity(kind: string, checkpoint: string, loras: readonly string[] = []): number {
    return this.placement.capacity(kind, checkpoint, loras);
  }

  /** Embedded mode: the best free backend, taken for the job at once (one process, nothing to lease). */
  occupyFree(
    kind: string,
    checkpoint: string,
    jobId: string,
    tried: ReadonlySet<string> = new Set(),
    loras: readonly string[] = [],
  ): Backend | null {
    return this.placement.occupyFree(kind, checkpoint, jobId, tried, loras);
  }

  /**
   * Scale-out mode: the best backend no process holds, leased for the job (local engines need no lease). Backends
   * another worker marked down are skipped.
   */
  lease(
    kind: string,
    checkpoint: string,
    jobId: string,
    tried: ReadonlySet<string>,
    loras: readonly string[] = [],
  ): Promise<Backend | null> {
    return this.placement.lease(kind, checkpoint, jobId, tried, loras);
  }

  /** What a 同步 found on a backend, for placing jobs that need a LoRA. */
  setAssets(id: string, assets: { checkpoints: Set<string>; loras: Set<string> }): void {
    this.roster.setAssets(id, assets);
  }

  /** Scale-out mode: reads the backends' rows and synced assets now, as other processes stored them. */
  async reload(): Promise<void> {
    await this.health.reloadOnMiss(true);
  }

  release(backend: Backend, jobId: string): Promise<void> {
    return this.placement.release(backend, jobId);
  }

  async list(): Promise<BackendItem[]> {
    // Another API process may have just added or changed a backend: the admin's list follows the rows, not this
    // process's last look (a new one is checked before it is listed, so its health is known).
    await this.health.reloadOnMiss(true);
    // One put by another request's reload may still be on its first check: its health is known after it.
    await Promise.all(
      this.all()
        .filter((b) => b.enabled && !b.builtin && b.checkedAt === null)
        .map((b) => this.check(b)),
    );
    await this.health.syncDownMarks();
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
