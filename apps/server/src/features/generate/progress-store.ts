import type { GeneratedImage, GenerationProgress, GenerationStatus } from '@huafang/contracts';
import { newSecret } from '../../platform/ids.js';

/** How long a finished generation's progress stays in memory for late pollers. */
const FINISHED_TTL_MS = 30 * 60_000;
const MAX_ENTRIES = 20_000;

type Entry = {
  userId: string;
  snapshot: GenerationProgress;
  jobId: string;
  finishedAt: number | null;
  preview: { key: string; bytes: Buffer; mime: string; version: number } | null;
};

export type JobRef = { generateId: string; jobId: string; stepNum: number; stepIndex: number };
export type ProgressUpdate = { percent: number; etaSeconds: number; preview?: Buffer; previewMime?: string };
export type ProgressRead = { snapshot: GenerationProgress; jobId: string };
export type PreviewRead = { bytes: Buffer; mime: string; generateId: string };

/**
 * The progress of generations, which `progress` polls read without touching the database (ARCHITECTURE
 * § Generation): in this process's memory (embedded) or in Redis (scale-out). Workers write it as jobs advance;
 * queue positions are filled in on read. Writes to an entry whose current job is another are ignored.
 */
export interface ProgressStore {
  /** A job of the generation entered the queue: the poller sees it queued from now on, with the images it kept. */
  queued(userId: string, job: JobRef, images?: GeneratedImage[]): Promise<void>;
  running(generateId: string, jobId: string, etaSeconds: number): Promise<void>;
  progress(generateId: string, jobId: string, update: ProgressUpdate): Promise<void>;
  /** Images stored so far show up while the rest of the batch paints. */
  addImages(generateId: string, jobId: string, images: GeneratedImage[]): Promise<void>;
  /** Back in line (a backend failed, or the server restarts). */
  requeued(generateId: string, jobId: string, message: string): Promise<void>;
  finished(generateId: string, jobId: string, status: GenerationStatus, message: string | null): Promise<void>;
  /** Puts a snapshot read from the database back (after a restart or eviction). */
  restore(userId: string, jobId: string, snapshot: GenerationProgress, finished: boolean): Promise<void>;
  /** The user's own generation only (null for another's); undefined when unknown (look in the database). */
  read(userId: string, generateId: string): Promise<ProgressRead | null | undefined>;
  /** A live preview by its key, with the generation it shows (the ProduceID of its AIGC label). */
  preview(key: string): Promise<PreviewRead | null>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** A snapshot of a job just queued: nothing ran yet, or a stopped run kept `images`. */
export function queuedSnapshot(job: JobRef, images: GeneratedImage[] = []): GenerationProgress {
  return {
    generateId: job.generateId,
    status: 'queued',
    progress: 0,
    queuePosition: 0,
    etaSeconds: 0,
    previewUrl: null,
    message: null,
    currentStepId: job.jobId,
    currentStepNum: job.stepNum,
    stepIndex: job.stepIndex,
    images,
  };
}

export const previewUrlOf = (key: string, version: number) => `/api/generate/task/preview/${key}?v=${version}`;

/** The snapshot after a progress report: percent only grows and stays below 100 until the job is done. */
export function advanced(snapshot: GenerationProgress, update: ProgressUpdate, previewUrl: string | null) {
  return {
    ...snapshot,
    progress: Math.max(snapshot.progress, Math.min(99, Math.round(update.percent))),
    etaSeconds: Math.max(0, Math.round(update.etaSeconds)),
    previewUrl,
  };
}

/**
 * Back in line after a failed backend or for a restart: the progress reached so far stays (the retry paints only
 * what is missing and goes on from there), the message says why it waits again.
 */
export function requeuedSnapshot(snapshot: GenerationProgress, message: string): GenerationProgress {
  return { ...snapshot, status: 'queued', etaSeconds: 0, message };
}

export function finishedSnapshot(
  snapshot: GenerationProgress,
  status: GenerationStatus,
  message: string | null,
): GenerationProgress {
  return {
    ...snapshot,
    status,
    progress: status === 'succeeded' ? 100 : snapshot.progress,
    queuePosition: 0,
    etaSeconds: 0,
    message,
  };
}

/** Embedded mode: the board in this process's memory. */
export class MemoryProgressStore implements ProgressStore {
  private readonly entries = new Map<string, Entry>();
  private readonly previews = new Map<string, string>();

  async queued(userId: string, job: JobRef, images: GeneratedImage[] = []): Promise<void> {
    const old = this.entries.get(job.generateId);
    if (old?.preview) this.previews.delete(old.preview.key);
    this.entries.set(job.generateId, {
      userId,
      jobId: job.jobId,
      finishedAt: null,
      preview: null,
      snapshot: queuedSnapshot(job, images),
    });
    this.sweep();
  }

  private current(generateId: string, jobId: string): Entry | undefined {
    const entry = this.entries.get(generateId);
    return entry && entry.jobId === jobId ? entry : undefined;
  }

  async running(generateId: string, jobId: string, etaSeconds: number): Promise<void> {
    const entry = this.current(generateId, jobId);
    if (!entry) return;
    entry.snapshot = { ...entry.snapshot, status: 'running', queuePosition: 0, etaSeconds, message: null };
  }

  async progress(generateId: string, jobId: string, update: ProgressUpdate): Promise<void> {
    const entry = this.current(generateId, jobId);
    if (entry?.snapshot.status !== 'running') return;
    let previewUrl = entry.snapshot.previewUrl;
    if (update.preview) {
      const key = entry.preview?.key ?? newSecret();
      const version = (entry.preview?.version ?? 0) + 1;
      entry.preview = { key, bytes: update.preview, mime: update.previewMime ?? 'image/png', version };
      this.previews.set(key, generateId);
      previewUrl = previewUrlOf(key, version);
    }
    entry.snapshot = advanced(entry.snapshot, update, previewUrl);
  }

  async addImages(generateId: string, jobId: string, images: GeneratedImage[]): Promise<void> {
    const entry = this.current(generateId, jobId);
    if (!entry) return;
    entry.snapshot = { ...entry.snapshot, images: [...entry.snapshot.images, ...images] };
  }

  async requeued(generateId: string, jobId: string, message: string): Promise<void> {
    const entry = this.current(generateId, jobId);
    if (!entry) return;
    entry.snapshot = requeuedSnapshot(entry.snapshot, message);
  }

  async finished(generateId: string, jobId: string, status: GenerationStatus, message: string | null): Promise<void> {
    const entry = this.current(generateId, jobId);
    if (!entry) return;
    entry.finishedAt = Date.now();
    entry.snapshot = finishedSnapshot(entry.snapshot, status, message);
  }

  async restore(userId: string, jobId: string, snapshot: GenerationProgress, finished: boolean): Promise<void> {
    this.entries.set(snapshot.generateId, {
      userId,
      jobId,
      snapshot,
      finishedAt: finished ? Date.now() : null,
      preview: null,
    });
  }

  async read(userId: string, generateId: string): Promise<ProgressRead | null | undefined> {
    const entry = this.entries.get(generateId);
    if (!entry) return undefined;
    if (entry.userId !== userId) return null;
    return { snapshot: entry.snapshot, jobId: entry.jobId };
  }

  async preview(key: string): Promise<PreviewRead | null> {
    const generateId = this.previews.get(key);
    const entry = generateId ? this.entries.get(generateId) : undefined;
    return generateId && entry?.preview?.key === key ? { ...entry.preview, generateId } : null;
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {}

  private sweep(): void {
    const now = Date.now();
    for (const [id, entry] of this.entries) {
      const expired = entry.finishedAt !== null && now - entry.finishedAt > FINISHED_TTL_MS;
      if (!expired && this.entries.size <= MAX_ENTRIES) break;
      if (entry.finishedAt === null) continue;
      if (entry.preview) this.previews.delete(entry.preview.key);
      this.entries.delete(id);
    }
  }
}
