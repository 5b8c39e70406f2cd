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

/**
 * The progress of generations, in memory: `progress` polls read it without touching the database
 * (ARCHITECTURE § Generation). Workers write it as jobs advance; queue positions are filled in on read.
 */
export class ProgressBoard {
  private readonly entries = new Map<string, Entry>();
  private readonly previews = new Map<string, string>();

  /** A job of the generation entered the queue: the poller sees it queued from now on. */
  queued(userId: string, job: { generateId: string; jobId: string; stepNum: number; stepIndex: number }): void {
    const old = this.entries.get(job.generateId);
    if (old?.preview) this.previews.delete(old.preview.key);
    this.entries.set(job.generateId, {
      userId,
      jobId: job.jobId,
      finishedAt: null,
      preview: null,
      snapshot: {
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
        images: [],
      },
    });
    this.sweep();
  }

  private current(generateId: string, jobId: string): Entry | undefined {
    const entry = this.entries.get(generateId);
    return entry && entry.jobId === jobId ? entry : undefined;
  }

  running(generateId: string, jobId: string, etaSeconds: number): void {
    const entry = this.current(generateId, jobId);
    if (!entry) return;
    entry.snapshot = { ...entry.snapshot, status: 'running', queuePosition: 0, etaSeconds, message: null };
  }

  progress(
    generateId: string,
    jobId: string,
    update: { percent: number; etaSeconds: number; preview?: Buffer; previewMime?: string },
  ): void {
    const entry = this.current(generateId, jobId);
    if (entry?.snapshot.status !== 'running') return;
    let previewUrl = entry.snapshot.previewUrl;
    if (update.preview) {
      const key = entry.preview?.key ?? newSecret();
      const version = (entry.preview?.version ?? 0) + 1;
      entry.preview = { key, bytes: update.preview, mime: update.previewMime ?? 'image/png', version };
      this.previews.set(key, generateId);
      previewUrl = `/api/generate/task/preview/${key}?v=${version}`;
    }
    entry.snapshot = {
      ...entry.snapshot,
      progress: Math.max(entry.snapshot.progress, Math.min(99, Math.round(update.percent))),
      etaSeconds: Math.max(0, Math.round(update.etaSeconds)),
      previewUrl,
    };
  }

  /** Images stored so far show up while the rest of the batch paints. */
  addImages(generateId: string, jobId: string, images: GeneratedImage[]): void {
    const entry = this.current(generateId, jobId);
    if (!entry) return;
    entry.snapshot = { ...entry.snapshot, images: [...entry.snapshot.images, ...images] };
  }

  /** Back in line (a backend failed, or the server restarts). */
  requeued(generateId: string, jobId: string, message: string): void {
    const entry = this.current(generateId, jobId);
    if (!entry) return;
    entry.snapshot = { ...entry.snapshot, status: 'queued', progress: 0, message };
  }

  finished(generateId: string, jobId: string, status: GenerationStatus, message: string | null): void {
    const entry = this.current(generateId, jobId);
    if (!entry) return;
    entry.finishedAt = Date.now();
    entry.snapshot = {
      ...entry.snapshot,
      status,
      progress: status === 'succeeded' ? 100 : entry.snapshot.progress,
      queuePosition: 0,
      etaSeconds: 0,
      message,
    };
  }

  /** Puts a snapshot read from the database back (after a restart or eviction). */
  restore(userId: string, jobId: string, snapshot: GenerationProgress, finished: boolean): void {
    this.entries.set(snapshot.generateId, {
      userId,
      jobId,
      snapshot,
      finishedAt: finished ? Date.now() : null,
      preview: null,
    });
  }

  /** The user's own generation only; undefined when unknown here (the caller may look in the database). */
  read(userId: string, generateId: string): { snapshot: GenerationProgress; jobId: string } | null | undefined {
    const entry = this.entries.get(generateId);
    if (!entry) return undefined;
    if (entry.userId !== userId) return null;
    return { snapshot: entry.snapshot, jobId: entry.jobId };
  }

  preview(key: string): { bytes: Buffer; mime: string } | null {
    const generateId = this.previews.get(key);
    const entry = generateId ? this.entries.get(generateId) : undefined;
    return entry?.preview?.key === key ? entry.preview : null;
  }

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
