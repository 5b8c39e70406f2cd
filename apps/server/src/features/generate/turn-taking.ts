/**
 * The arithmetic of the fair queue, with no clock and no I/O, so it is tested by itself: each user has a
 * first-in-first-out line, and users take turns (round-robin). A user who joins takes the turn just before the
 * current one, so everyone already waiting goes first.
 */
export type LineEntry = { jobId: string; userId: string };

export class TurnTakingLine<T extends LineEntry> {
  private readonly waiting = new Map<string, T[]>();
  /** Users with waiting jobs in turn order; `cursor` is whose turn it is. */
  private rotation: string[] = [];
  private cursor = 0;

  get size(): number {
    let size = 0;
    for (const list of this.waiting.values()) size += list.length;
    return size;
  }

  queuedCount(userId: string): number {
    return this.waiting.get(userId)?.length ?? 0;
  }

  find(jobId: string): T | undefined {
    for (const list of this.waiting.values()) {
      const item = list.find((candidate) => candidate.jobId === jobId);
      if (item) return item;
    }
    return undefined;
  }

  /** At the end of its user's line, or at the front (a job coming back after its backend failed). */
  add(item: T, front = false): void {
    const list = this.waiting.get(item.userId) ?? [];
    if (front) list.unshift(item);
    else list.push(item);
    if (this.waiting.has(item.userId)) return;
    this.waiting.set(item.userId, list);
    this.rotation.splice(this.cursor, 0, item.userId);
    this.cursor = (this.cursor + 1) % this.rotation.length;
  }

  remove(jobId: string): T | null {
    for (const [userId, list] of this.waiting) {
      const index = list.findIndex((item) => item.jobId === jobId);
      if (index < 0) continue;
      const [item] = list.splice(index, 1);
      if (list.length === 0) this.dropUser(userId);
      return item ?? null;
    }
    return null;
  }

  /**
   * Offers each user's first job in turn order to `start`, which starts it and answers what it started on (a
   * leased backend), or null when it cannot start now (the user runs enough already, no backend is free). The
   * first job started leaves the line and the turn passes to the next user.
   */
  take<R>(start: (item: T) => R | null): { item: T; started: R } | null {
    const n = this.rotation.length;
    for (let turn = 0; turn < n; turn++) {
      const index = (this.cursor + turn) % n;
      const userId = this.rotation[index]!;
      const list = this.waiting.get(userId)!;
      const item = list[0]!;
      const started = start(item);
      if (started === null) continue;
      list.shift();
      if (list.length === 0) {
        this.waiting.delete(userId);
        this.rotation.splice(index, 1);
        this.cursor = this.rotation.length === 0 ? 0 : index % this.rotation.length;
      } else {
        this.cursor = (index + 1) % n;
      }
      return { item, started };
    }
    return null;
  }

  /** 1-based place in line (1 = next to run); 0 when not waiting. */
  position(jobId: string): number {
    const n = this.rotation.length;
    for (let turn = 0; turn < n; turn++) {
      const userId = this.rotation[(this.cursor + turn) % n]!;
      const index = this.waiting.get(userId)?.findIndex((item) => item.jobId === jobId) ?? -1;
      if (index < 0) continue;
      let ahead = 0;
      for (let other = 0; other < n; other++) {
        const length = this.waiting.get(this.rotation[(this.cursor + other) % n]!)?.length ?? 0;
        // Users earlier in this round get one more turn before ours comes.
        ahead += Math.min(length, other < turn ? index + 1 : index);
      }
      return ahead + 1;
    }
    return 0;
  }

  /** Where a new job of this user would land (predict): after everyone's jobs up to its own count. */
  positionIfAdded(userId: string): number {
    const own = this.queuedCount(userId);
    let ahead = own;
    for (const [other, list] of this.waiting) if (other !== userId) ahead += Math.min(list.length, own + 1);
    return ahead + 1;
  }

  private dropUser(userId: string): void {
    this.waiting.delete(userId);
    const index = this.rotation.indexOf(userId);
    if (index < 0) return;
    this.rotation.splice(index, 1);
    if (index < this.cursor) this.cursor--;
    if (this.cursor >= this.rotation.length) this.cursor = 0;
  }
}

/** Seconds per work unit before any job has been measured (the built-in engine's order of magnitude). */
export const INITIAL_SECONDS_PER_UNIT = 0.04;

/** A measured job moves the estimate a little: an exponential moving average. */
export function nextSecondsPerUnit(current: number, measured: number): number {
  return current * 0.7 + measured * 0.3;
}

/**
 * What is left of an estimated wait after `elapsedSeconds`: it counts down, and once the estimate is passed it
 * grows again by half the overrun (the work is late, so some more is honest; a figure frozen at 0, or at a job's
 * own few seconds, is not). Continuous where the estimate runs out.
 */
export function secondsLeft(estimateSeconds: number, elapsedSeconds: number): number {
  const left = estimateSeconds - Math.max(0, elapsedSeconds);
  return left >= 0 ? left : -left / 2;
}

/**
 * A waiting job's ETA computed `elapsedSeconds` ago (scale-out standings are written when the line changes):
 * its own work stays whole while it waits, the wait before it counts down as secondsLeft does.
 */
export function agedEtaSeconds(standing: { etaSeconds: number; ownSeconds: number }, elapsedSeconds: number): number {
  const own = Math.min(standing.ownSeconds, standing.etaSeconds);
  return Math.ceil(own + secondsLeft(standing.etaSeconds - own, elapsedSeconds));
}

/**
 * Seconds until a job is done: the work ahead of it (counted as jobs like its own) and what running jobs have
 * left, spread over the backends that can take it, plus its own work.
 */
export function etaSeconds(input: {
  position: number;
  units: number;
  secondsPerUnit: number;
  capacity: number;
  runningLeftSeconds: number;
}): number {
  const capacity = Math.max(1, input.capacity);
  const ahead = Math.max(0, input.position - 1) * input.units * input.secondsPerUnit;
  return Math.ceil((ahead + input.runningLeftSeconds) / capacity + input.units * input.secondsPerUnit);
}
