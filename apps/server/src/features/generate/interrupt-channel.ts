import { INTERRUPT } from './job-queue.js';

/** How long an interrupt waits for its job to start watching (it was between the line and its backend). */
export const INTERRUPT_HOLD_MS = 60_000;

/**
 * Carries a user's interrupt to wherever the job runs: this process (embedded) or any worker (Redis pub/sub).
 * An interrupt sent before the job watches is kept for a while, so a job being handed to its backend at that
 * moment still stops.
 */
export interface InterruptChannel {
  /** Aborts `controller` with INTERRUPT when the job is interrupted; answers a function that stops watching. */
  watch(jobId: string, controller: AbortController): Promise<() => void>;
  interrupt(jobId: string): Promise<void>;
  /** Starts hearing interrupts where jobs run. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Watchers and held interrupts of the jobs of one process; the Redis channel builds on it. */
export class LocalInterruptChannel implements InterruptChannel {
  private readonly watchers = new Map<string, AbortController>();
  private readonly held = new Map<string, number>();

  async watch(jobId: string, controller: AbortController): Promise<() => void> {
    this.watchers.set(jobId, controller);
    if (this.takeHeld(jobId)) controller.abort(INTERRUPT);
    return () => {
      if (this.watchers.get(jobId) === controller) this.watchers.delete(jobId);
    };
  }

  async interrupt(jobId: string): Promise<void> {
    this.deliver(jobId);
  }

  /** Stops the job if it runs here; otherwise holds the interrupt for it. */
  deliver(jobId: string): void {
    const controller = this.watchers.get(jobId);
    if (controller) {
      controller.abort(INTERRUPT);
      return;
    }
    const now = Date.now();
    for (const [id, at] of this.held) if (now - at > INTERRUPT_HOLD_MS) this.held.delete(id);
    this.held.set(jobId, now);
  }

  private takeHeld(jobId: string): boolean {
    const at = this.held.get(jobId);
    this.held.delete(jobId);
    return at !== undefined && Date.now() - at <= INTERRUPT_HOLD_MS;
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.watchers.clear();
    this.held.clear();
  }
}
