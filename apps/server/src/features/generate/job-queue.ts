export type QueueLimits = {
  /** Jobs of one user running at once. */
  maxRunningPerUser: number;
  /** Jobs of one user waiting at once; one more is refused with a clear message. */
  maxQueuedPerUser: number;
  /** Tries of a job on backends that fail (unreachable, 5xx, timeout) before it fails for good. */
  maxAttempts: number;
};

/** A waiting or running job as a queue carries it; the database row is the durable copy. */
export type QueueItem = {
  jobId: string;
  generateId: string;
  userId: string;
  engineKind: string;
  checkpoint: string;
  /** The backend names of the LoRAs it uses: only a backend having each may run it. */
  loras?: string[];
  /** Work units (steps × images × size) for the ETA. */
  units: number;
  attempts: number;
  /** Backends that failed this job: others are preferred for the retry. */
  tried: Set<string>;
};

/** Why a running job's signal was aborted: the user's interrupt, or the process stopping. */
export const SHUTDOWN = 'shutdown';
export const INTERRUPT = 'interrupt';

/**
 * How a run ended: settled (succeeded, interrupted, failed), back in line for another backend (retry), or left
 * queued in the database for the next process (requeue).
 */
export type JobOutcome = 'succeeded' | 'interrupted' | 'failed' | 'retry' | 'requeue';

/** One run of a job: aborted with INTERRUPT or SHUTDOWN; `started` is called once the job is painting. */
export type JobRun = { signal: AbortSignal; etaSeconds: number; started?: () => void };

export type QueueStanding = { queuePosition: number; etaSeconds: number };

export type QueueHealth = { waiting: number; active: number; delayed: number; failed: number; workers: number };

/**
 * Where generation jobs wait and who runs them: in this process (embedded mode) or through BullMQ on Redis
 * (scale-out). Users take turns; each runs at most `limits.maxRunningPerUser` jobs at once. A queue runs and
 * settles its jobs through the JobLifecycle it is built with.
 */
export interface JobQueue {
  readonly limits: QueueLimits;
  /** Puts the jobs a previous process left back in line and starts running jobs where this process runs them. */
  start(): Promise<void>;
  /** Fails (fast) when the queue cannot take a job now; a submit asks before it charges anything. */
  reachable(): Promise<void>;
  /** A job just submitted (its rows committed). */
  add(item: QueueItem): Promise<void>;
  /** Takes a waiting job out of line and settles it (credits back); false when it is not waiting (started or done). */
  cancel(jobId: string, userId: string): Promise<boolean>;
  /** Place in line and ETA of a waiting job (0, 0 when it is not waiting). */
  standing(job: { jobId: string; generateId: string }): Promise<QueueStanding>;
  /** Where a new job of this user would land and when it would be done (predict). */
  predict(userId: string, job: { units: number; engineKind: string; checkpoint: string }): Promise<QueueStanding>;
  /** For admins' health view: BullMQ's jobs by state and its workers (null in embedded mode: no BullMQ). */
  health(): Promise<QueueHealth | null>;
  /** For 数据看板: jobs waiting and running now. */
  stats(): Promise<{ waiting: number; running: number }>;
  /** Stops taking jobs and gives running ones the grace period; then they stop and wait for the next start. */
  close(): Promise<void>;
  /** Ends the grace period now (a second stop signal). */
  stopRunning(): void;
}
