import type { GeneratedImage, GenerationProgress, GenerationStatus } from '@huafang/contracts';
import type { Redis } from 'ioredis';
import { newSecret } from '../../platform/ids.js';
import {
  advanced,
  finishedSnapshot,
  type JobRef,
  type PreviewRead,
  type ProgressRead,
  type ProgressStore,
  type ProgressUpdate,
  previewUrlOf,
  queuedSnapshot,
  requeuedSnapshot,
} from './progress-store.js';

/** A finished generation's progress stays this long for late pollers; an unfinished one is kept a day. */
const FINISHED_TTL_MS = 30 * 60_000;
const ACTIVE_TTL_MS = 24 * 3600_000;

type Entry = {
  userId: string;
  jobId: string;
  snapshot: GenerationProgress;
  preview: { key: string; version: number } | null;
};

/**
 * Scale-out mode: progress in Redis, written by the worker running the job and read by any API process with
 * one GET. An entry is one JSON value; the live preview's bytes sit beside it under their unguessable key.
 * Writes to one generation are chained in this process so a progress report never overtakes an earlier one.
 */
export class RedisProgressStore implements ProgressStore {
  private readonly chains = new Map<string, Promise<void>>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private entryKey(generateId: string): string {
    return `${this.prefix}:progress:${generateId}`;
  }

  private previewKey(key: string): string {
    return `${this.prefix}:preview:${key}`;
  }

  private async load(generateId: string): Promise<Entry | null> {
    const raw = await this.redis.get(this.entryKey(generateId));
    return raw ? (JSON.parse(raw) as Entry) : null;
  }

  private async save(generateId: string, entry: Entry, finished: boolean): Promise<void> {
    await this.redis.set(
      this.entryKey(generateId),
      JSON.stringify(entry),
      'PX',
      finished ? FINISHED_TTL_MS : ACTIVE_TTL_MS,
    );
  }

  /** Read-modify-write of the generation's current job, after the writes this process already started. */
  private change(generateId: string, jobId: string, edit: (entry: Entry) => Promise<boolean> | boolean): Promise<void> {
    const previous = this.chains.get(generateId) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const entry = await this.load(generateId);
        if (entry?.jobId !== jobId) return;
        if (await edit(entry)) {
          const status = entry.snapshot.status;
          await this.save(generateId, entry, status !== 'queued' && status !== 'running');
        }
      });
    const settled = next.finally(() => {
      if (this.chains.get(generateId) === settled) this.chains.delete(generateId);
    });
    this.chains.set(generateId, settled);
    return next;
  }

  async queued(userId: string, job: JobRef, images: GeneratedImage[] = []): Promise<void> {
    const snapshot = queuedSnapshot(job, images);
    await this.save(job.generateId, { userId, jobId: job.jobId, snapshot, preview: null }, false);
  }

  running(generateId: string, jobId: string, etaSeconds: number): Promise<void> {
    return this.change(generateId, jobId, (entry) => {
      entry.snapshot = { ...entry.snapshot, status: 'running', queuePosition: 0, etaSeconds, message: null };
      return true;
    });
  }

  progress(generateId: string, jobId: string, update: ProgressUpdate): Promise<void> {
    return this.change(generateId, jobId, async (entry) => {
      if (entry.snapshot.status !== 'running') return false;
      let previewUrl = entry.snapshot.previewUrl;
      if (update.preview) {
        const key = entry.preview?.key ?? newSecret();
        const version = (entry.preview?.version ?? 0) + 1;
        entry.preview = { key, version };
        await this.redis.hset(this.previewKey(key), {
          bytes: update.preview,
          mime: update.previewMime ?? 'image/png',
          generateId,
        });
        await this.redis.pexpire(this.previewKey(key), FINISHED_TTL_MS);
        previewUrl = previewUrlOf(key, version);
      }
      entry.snapshot = advanced(entry.snapshot, update, previewUrl);
      return true;
    });
  }

  addImages(generateId: string, jobId: string, images: GeneratedImage[]): Promise<void> {
    return this.change(generateId, jobId, (entry) => {
      entry.snapshot = { ...entry.snapshot, images: [...entry.snapshot.images, ...images] };
      return true;
    });
  }

  requeued(generateId: string, jobId: string, message: string): Promise<void> {
    return this.change(generateId, jobId, (entry) => {
      entry.snapshot = requeuedSnapshot(entry.snapshot, message);
      return true;
    });
  }

  finished(generateId: string, jobId: string, status: GenerationStatus, message: string | null): Promise<void> {
    return this.change(generateId, jobId, (entry) => {
      entry.snapshot = finishedSnapshot(entry.snapshot, status, message);
      return true;
    });
  }

  async restore(userId: string, jobId: string, snapshot: GenerationProgress, finished: boolean): Promise<void> {
    await this.save(snapshot.generateId, { userId, jobId, snapshot, preview: null }, finished);
  }

  async read(userId: string, generateId: string): Promise<ProgressRead | null | undefined> {
    const entry = await this.load(generateId);
    if (!entry) return undefined;
    if (entry.userId !== userId) return null;
    return { snapshot: entry.snapshot, jobId: entry.jobId };
  }

  async preview(key: string): Promise<PreviewRead | null> {
    const [bytes, mime, generateId] = await this.redis.hmgetBuffer(this.previewKey(key), 'bytes', 'mime', 'generateId');
    // A preview stored by an older version has no generateId: its key stands in (it expires within 30 minutes).
    return bytes && mime ? { bytes, mime: mime.toString(), generateId: generateId?.toString() ?? key } : null;
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {
    await Promise.allSettled(this.chains.values());
  }
}
