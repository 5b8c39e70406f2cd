import type { GeneratedImage, GenerationProgress, GenerationStatus } from '@huafang/contracts';
import type { Redis } from 'ioredis';
import { newSecret } from '../../platform/ids.js';
import type { RedisFeed } from '../../platform/redis/redis-feed.js';
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

/** A mirrored entry confirmed this recently is answered from memory; an older one is read again. */
export const MIRROR_FRESH_MS = 5_000;
/** An entry no poll of this process asked for this long leaves the mirror. */
const MIRROR_IDLE_MS = 60_000;
/** A finished generation's entry stays this long for the page's last polls; later ones read Redis. */
const MIRROR_FINISHED_MS = 10_000;
const MIRROR_SWEEP_MS = 10_000;
const MIRROR_MAX_ENTRIES = 50_000;

type Entry = {
  userId: string;
  jobId: string;
  snapshot: GenerationProgress;
  preview: { key: string; version: number } | null;
};

/** A generation this process's polls ask for, as the feed last told it. */
type Mirrored = {
  entry: Entry | null;
  /** When a message or a read last confirmed `entry`; 0: read Redis first. */
  at: number;
  readAt: number;
  finishedAt: number;
  /** Moves on at every message and every write of this process: a read answered meanwhile is not kept. */
  seq: number;
  loading: Promise<Entry | null> | null;
};

/** Where every write of an entry is published: `<generateId>\n<the entry's JSON>`. */
export const progressFeedChannel = (prefix: string) => `${prefix}:progress-feed`;

const isFinished = (entry: Entry | null) =>
  entry !== null && entry.snapshot.status !== 'queued' && entry.snapshot.status !== 'running';

/**
 * Scale-out mode: progress in Redis, written by the worker running the job and read by any API process. An entry
 * is one JSON value; the live preview's bytes sit beside it under their unguessable key. Writes to one generation
 * are chained in this process so a progress report never overtakes an earlier one.
 *
 * Every write is published in the same MULTI. With a `feed` (API processes) the entries its polls ask for are
 * mirrored in memory and kept current by those messages, so a poll costs no Redis round trip; an entry is read
 * again (one GET, shared by concurrent polls) when it is new here, older than MIRROR_FRESH_MS, written by this
 * process, or while the feed is down (then nothing is kept).
 */
export class RedisProgressStore implements ProgressStore {
  private readonly chains = new Map<string, Promise<void>>();
  private readonly mirror = new Map<string, Mirrored>();
  private sweepTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly feed: RedisFeed | null = null,
  ) {
    feed?.handle(progressFeedChannel(prefix), (message) => this.received(message));
    feed?.onGap(() => this.mirror.clear());
  }

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
    const json = JSON.stringify(entry);
    const results = await this.redis
      .multi()
      .set(this.entryKey(generateId), json, 'PX', finished ? FINISHED_TTL_MS : ACTIVE_TTL_MS)
      .publish(progressFeedChannel(this.prefix), `${generateId}\n${json}`)
      .exec();
    const failed = results?.find(([err]) => err)?.[0];
    if (failed) throw failed;
    // Read again: a message of an earlier write may still be on its way, and the next poll must see this one.
    const mirrored = this.mirror.get(generateId);
    if (mirrored) {
      mirrored.at = 0;
      mirrored.seq += 1;
    }
  }

  /**
   * The entry as a read of Redis now would give it: from the mirror once the messages published before this call
   * are handled (RedisFeed.sync), else from Redis (kept in the mirror when nothing moved meanwhile).
   */
  private current(generateId: string): Promise<Entry | null> {
    const feed = this.feed;
    if (!feed?.live) return this.load(generateId);
    // A failed PING of the subscription alone (Redis dropped that client) is no outage: the poll reads Redis, whose
    // own failure is the 503.
    return feed.sync().then(
      () => this.mirrored(feed, generateId),
      () => this.load(generateId),
    );
  }

  private mirrored(feed: RedisFeed, generateId: string): Entry | null | Promise<Entry | null> {
    const now = Date.now();
    const mirrored = this.mirror.get(generateId);
    if (mirrored) {
      mirrored.readAt = now;
      if (mirrored.at !== 0 && now - mirrored.at < MIRROR_FRESH_MS && feed.live) return mirrored.entry;
      return mirrored.loading ?? this.reload(generateId, mirrored);
    }
    if (!feed.live || this.mirror.size >= MIRROR_MAX_ENTRIES) return this.load(generateId);
    const added: Mirrored = { entry: null, at: 0, readAt: now, finishedAt: 0, seq: 0, loading: null };
    this.mirror.set(generateId, added);
    return this.reload(generateId, added);
  }

  private reload(generateId: string, mirrored: Mirrored): Promise<Entry | null> {
    const feed = this.feed!;
    const { seq } = mirrored;
    const { epoch, live } = feed;
    const loading = this.load(generateId).finally(() => {
      if (mirrored.loading === loading) mirrored.loading = null;
    });
    mirrored.loading = loading;
    return loading.then((entry) => {
      // Absent (expired): not kept, so the entry written back from the database is read then.
      const unmoved = live && epoch === feed.epoch && seq === mirrored.seq && this.mirror.get(generateId) === mirrored;
      if (entry && unmoved) this.keep(mirrored, entry, Date.now());
      // Nothing in Redis under that id (unknown, or long expired): no mirror slot is held for it.
      else if (!entry && mirrored.at === 0 && this.mirror.get(generateId) === mirrored) this.mirror.delete(generateId);
      return entry;
    });
  }

  private keep(mirrored: Mirrored, entry: Entry, now: number): void {
    mirrored.entry = entry;
    mirrored.at = now;
    mirrored.finishedAt = isFinished(entry) ? now : 0;
  }

  /** A write published by any process: kept when a poll of this process follows that generation. */
  private received(message: string): void {
    const cut = message.indexOf('\n');
    const generateId = message.slice(0, cut);
    const mirrored = this.mirror.get(generateId);
    if (!mirrored) return;
    mirrored.seq += 1;
    try {
      this.keep(mirrored, JSON.parse(message.slice(cut + 1)) as Entry, Date.now());
    } catch {
      this.mirror.delete(generateId);
    }
  }

  private sweep(): void {
    const now = Date.now();
    for (const [generateId, mirrored] of this.mirror) {
      const idle = now - mirrored.readAt > MIRROR_IDLE_MS;
      const done = mirrored.finishedAt !== 0 && now - mirrored.finishedAt > MIRROR_FINISHED_MS;
      if (idle || done) this.mirror.delete(generateId);
    }
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
    const entry = await this.current(generateId);
    if (!entry) return undefined;
    if (entry.userId !== userId) return null;
    return { snapshot: entry.snapshot, jobId: entry.jobId };
  }

  async preview(key: string): Promise<PreviewRead | null> {
    const [bytes, mime, generateId] = await this.redis.hmgetBuffer(this.previewKey(key), 'bytes', 'mime', 'generateId');
    // A preview stored by an older version has no generateId: its key stands in (it expires within 30 minutes).
    return bytes && mime ? { bytes, mime: mime.toString(), generateId: generateId?.toString() ?? key } : null;
  }

  async start(): Promise<void> {
    if (!this.feed) return;
    this.sweepTimer = setInterval(() => this.sweep(), MIRROR_SWEEP_MS);
    this.sweepTimer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.sweepTimer);
    await Promise.allSettled(this.chains.values());
  }
}
