import type { BackendAvailability } from './backend-availability.js';
import type { BackendHealth } from './backend-health.js';
import type { BackendLeases } from './backend-leases.js';
import { type Backend, type BackendRoster, checkpointKey } from './backend-roster.js';

/**
 * Which backend runs a job: a free healthy one serving its model, taken for the job and given back after; in
 * scale-out mode remote backends are leased through `leases` so two workers never send a job to one server at once.
 */
export class BackendPlacement {
  constructor(
    private readonly roster: BackendRoster,
    private readonly health: BackendHealth,
    private readonly leases: BackendLeases | null,
    private readonly availability: BackendAvailability,
  ) {}

  /**
   * Whether a backend can run a job: enabled, of its kind, serving its checkpoint (by the admin's list and, once
   * synced, by what the backend reported) and having every LoRA it names (known only from a sync or the built-in
   * catalogue).
   */
  private serves(backend: Backend, kind: string, checkpoint: string, loras: readonly string[]): boolean {
    return (
      backend.enabled &&
      backend.kind === kind &&
      (backend.models.length === 0 || backend.models.includes(checkpoint)) &&
      (backend.syncedCheckpoints === null || backend.syncedCheckpoints.has(checkpointKey(checkpoint))) &&
      loras.every((lora) => backend.loras?.has(lora) === true)
    );
  }

  /** The enabled backends (up or not) that serve a checkpoint: the admin's model list names them. */
  servers(kind: string, checkpoint: string): Backend[] {
    return this.roster.all().filter((b) => this.serves(b, kind, checkpoint, []));
  }

  /** Whether any enabled backend (up or not) serves the model and LoRAs: if none does, a job could never run. */
  async hasCandidate(kind: string, checkpoint: string, loras: readonly string[] = []): Promise<boolean> {
    const serves = () => this.roster.all().some((b) => this.serves(b, kind, checkpoint, loras));
    if (serves()) return true;
    await this.health.reloadOnMiss(true);
    return serves();
  }

  /** How many healthy backends serve the model: the queue's ETA divides by it. */
  capacity(kind: string, checkpoint: string, loras: readonly string[] = []): number {
    return this.roster.all().filter((b) => b.healthy && this.serves(b, kind, checkpoint, loras)).length;
  }

  /**
   * Healthy backends serving the model and free in this process, best first: one that has not failed this job
   * (`tried`) before one that has, then the one idle longest.
   */
  private candidates(
    kind: string,
    checkpoint: string,
    tried: ReadonlySet<string>,
    loras: readonly string[],
  ): Backend[] {
    const rank = (b: Backend) => (tried.has(b.id) ? 1 : 0);
    return this.roster
      .all()
      .filter((b) => !b.runningJobId && b.healthy && this.serves(b, kind, checkpoint, loras))
      .sort((a, b) => rank(a) - rank(b) || a.lastFinishedAt - b.lastFinishedAt);
  }

  /** Embedded mode: the best free backend, taken for the job at once (one process, nothing to lease). */
  occupyFree(
    kind: string,
    checkpoint: string,
    jobId: string,
    tried: ReadonlySet<string>,
    loras: readonly string[] = [],
  ): Backend | null {
    const backend = this.candidates(kind, checkpoint, tried, loras)[0] ?? null;
    if (backend) backend.runningJobId = jobId;
    return backend;
  }

  /**
   * Scale-out mode: the best backend no process holds, leased for the job (local engines need no lease). Backends
   * another worker marked down are skipped.
   */
  async lease(
    kind: string,
    checkpoint: string,
    jobId: string,
    tried: ReadonlySet<string>,
    loras: readonly string[] = [],
  ): Promise<Backend | null> {
    if (this.candidates(kind, checkpoint, tried, loras).length === 0) await this.health.reloadOnMiss();
    await this.health.syncDownMarks();
    for (const backend of this.candidates(kind, checkpoint, tried, loras)) {
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
    this.availability.available();
  }
}
