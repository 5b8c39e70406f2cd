import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { RedisFeed } from '../../platform/redis/redis-feed.js';
import type { BackendPool } from '../backends/backend-pool.js';
import type { GenerationRepository } from './generation.repository.js';
import { queueItemOf } from './job-payload.js';
import type { QueueItem, QueueLimits, QueueStanding } from './job-queue.js';
import {
  agedEtaSeconds,
  etaSeconds,
  INITIAL_SECONDS_PER_UNIT,
  nextSecondsPerUnit,
  secondsLeft,
  TurnTakingLine,
} from './turn-taking.js';

/**
 * Rewriting the standings reads the whole line from the database, so a worker starts one at most this often:
 * while jobs start and finish by the dozen a second, the changes of one such moment share one rewrite instead of
 * each reading the line again (places in line then trail such a change by at most this long). A submit or a
 * cancel does not wait: the user who made it looks at the line next.
 */
const LINE_REFRESH_GAP_MS = 200;
/** Standings are rewritten after every change; this keeps a stale copy from outliving a crashed writer. */
const LINE_TTL_MS = 10 * 60_000;

/** A standing as written: with the time and the job's own share, a read ages the ETA (see agedEtaSeconds). */
type Standing = QueueStanding & { jobId: string; ownSeconds?: number; at?: number };

/** Where every rewrite of the line is published: the JSON of all its standings by generateId. */
export const lineFeedChannel = (prefix: string) => `${prefix}:line-feed`;

/** The mirrored line is answered from memory when a message or a read confirmed it this recently. */
const LINE_MIRROR_FRESH_MS = 5_000;

const parsedLine = (raw: Record<string, string>) =>
  new Map(Object.entries(raw).map(([generateId, json]) => [generateId, JSON.parse(json) as Standing]));

type LineRow = Awaited<ReturnType<GenerationRepository['waitingAndRunning']>>[number];
type LineJob = QueueItem & { handed: boolean; startedAt: string | null; running: boolean };
type Estimated = Pick<QueueItem, 'units' | 'engineKind' | 'checkpoint' | 'loras'>;

function lineJobOf(row: LineRow): LineJob {
  return {
    ...queueItemOf(row),
    handed: row.handed_at !== null,
    startedAt: row.started_at,
    running: row.status === 'running',
  };
}

/**
 * Scale-out mode: places in line and ETAs of the waiting jobs, recomputed (from the database) whenever the line
 * changes and kept in one Redis hash, so a `progress` poll reads its standing without SQL; and the measured speed
 * of the backends (seconds per work unit) the ETAs are made of, shared by every process.
 */
export class QueueStandings {
  private pending: Promise<void> | null = null;
  private chain: Promise<void> = Promise.resolve();
  private writtenAt = 0;
  /** A submit or cancel asked for the next rewrite: it does not wait for the gap. */
  private urgent = false;
  /** Ends the pending rewrite's wait for the gap early. */
  private wake: (() => void) | null = null;
  private closed = false;
  /** API processes: the whole line as the last rewrite published it (see RedisProgressStore's mirror). */
  private mirror: { standings: Map<string, Standing>; at: number } | null = null;
  /** Moves on at every message and every rewrite of this process: a read answered meanwhile is not kept. */
  private mirrorSeq = 0;
  private mirrorLoading: Promise<Map<string, Standing>> | null = null;

  constructor(
    private readonly deps: {
      redis: Redis;
      /** Reads of the progress polls (standings), pipelined. */
      polls: Redis;
      prefix: string;
      repo: GenerationRepository;
      pool: BackendPool;
      limits: QueueLimits;
      log: FastifyBaseLogger;
      /** API processes: the rewrites of the line as they are published. */
      feed?: RedisFeed | null;
    },
  ) {
    deps.feed?.handle(lineFeedChannel(deps.prefix), (message) => this.received(message));
    deps.feed?.onGap(() => this.forget());
  }

  private get lineKey(): string {
    return `${this.deps.prefix}:line`;
  }

  private get speedKey(): string {
    return `${this.deps.prefix}:seconds-per-unit`;
  }

  async secondsPerUnit(): Promise<number> {
    const stored = Number(await this.deps.redis.get(this.speedKey));
    return stored > 0 ? stored : INITIAL_SECONDS_PER_UNIT;
  }

  /** A job succeeded in `measured` seconds per unit: the shared speed moves towards it. */
  async measure(measured: number): Promise<void> {
    await this.deps.redis.set(this.speedKey, String(nextSecondsPerUnit(await this.secondsPerUnit(), measured)));
  }

  /**
   * Recomputes every waiting job's standing: the answer comes once a rewrite that started after the call is
   * written. Calls while one is pending share it; unless `urgent`, a rewrite waits until LINE_REFRESH_GAP_MS
   * after the last one began.
   */
  refresh(urgent = false): Promise<void> {
    if (urgent) {
      this.urgent = true;
      this.wake?.();
    }
    if (this.pending) return this.pending;
    const run = this.chain
      .then(async () => {
        const wait = this.writtenAt + LINE_REFRESH_GAP_MS - Date.now();
        if (wait > 0 && !this.urgent && !this.closed) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, wait);
            this.wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
        this.wake = null;
        this.urgent = false;
        this.pending = null;
        this.writtenAt = Date.now();
        return this.write();
      })
      .catch((err: unknown) => this.deps.log.warn({ err }, 'queue standings not updated'));
    this.pending = run;
    this.chain = run;
    return run;
  }

  /**
   * The line as users see it: jobs handed to BullMQ first (it runs them in order), then the backlogs taking
   * turns. ETAs spread the work ahead over the backends that can take each job.
   */
  private async line(): Promise<{
    waiting: LineJob[];
    position: (job: LineJob) => number;
    handedCount: number;
    backlog: TurnTakingLine<LineJob>;
    eta: (job: Estimated, position: number) => number;
    busy: Map<string, number>;
    speed: number;
  }> {
    const jobs = (await this.deps.repo.waitingAndRunning()).map(lineJobOf);
    const speed = await this.secondsPerUnit();
    const handed = jobs.filter((job) => job.handed && !job.running);
    const backlog = new TurnTakingLine<LineJob>();
    for (const job of jobs) if (!job.handed && !job.running) backlog.add(job);
    const busy = new Map<string, number>();
    for (const job of jobs) if (job.handed || job.running) busy.set(job.userId, (busy.get(job.userId) ?? 0) + 1);
    const now = Date.now();
    const runningLeftSeconds = jobs
      .filter((job) => job.running)
      .reduce((sum, job) => {
        const elapsed = job.startedAt ? (now - Date.parse(job.startedAt)) / 1000 : 0;
        return sum + secondsLeft(job.units * speed, elapsed);
      }, 0);
    const handedIndex = new Map(handed.map((job, i) => [job.jobId, i + 1]));
    return {
      waiting: jobs.filter((job) => !job.running),
      position: (job) => handedIndex.get(job.jobId) ?? handed.length + backlog.position(job.jobId),
      handedCount: handed.length,
      backlog,
      busy,
      speed,
      eta: (job, position) =>
        etaSeconds({
          position,
          units: job.units,
          secondsPerUnit: speed,
          capacity: this.deps.pool.capacity(job.engineKind, job.checkpoint, job.loras),
          runningLeftSeconds,
        }),
    };
  }

  private async write(): Promise<void> {
    const { waiting, position, eta, speed } = await this.line();
    const standings: Record<string, Standing> = {};
    const fields: Record<string, string> = {};
    const at = Date.now();
    for (const job of waiting) {
      const queuePosition = position(job);
      const standing = {
        jobId: job.jobId,
        queuePosition,
        etaSeconds: eta(job, queuePosition),
        ownSeconds: job.units * speed,
        at,
      };
      standings[job.generateId] = standing;
      fields[job.generateId] = JSON.stringify(standing);
    }
    const write = this.deps.redis.multi().del(this.lineKey);
    if (waiting.length > 0) write.hset(this.lineKey, fields).pexpire(this.lineKey, LINE_TTL_MS);
    await write.publish(lineFeedChannel(this.deps.prefix), JSON.stringify(standings)).exec();
    // Read again: a message of an earlier rewrite may still be on its way, and the next poll must see this one.
    this.forget();
  }

  private forget(): void {
    this.mirror = null;
    this.mirrorSeq += 1;
  }

  private received(message: string): void {
    this.mirrorSeq += 1;
    try {
      this.mirror = {
        standings: new Map(Object.entries(JSON.parse(message) as Record<string, Standing>)),
        at: Date.now(),
      };
    } catch {
      this.mirror = null;
    }
  }

  /**
   * A waiting job's standing as last written: from the mirror when it is current, else from Redis. A poll reads
   * its progress entry first, whose RedisFeed.sync also brought the mirrored line up to the poll's arrival.
   */
  private written(generateId: string): Standing | undefined | Promise<Standing | undefined> {
    const feed = this.deps.feed;
    if (!feed?.live) {
      return this.deps.polls
        .hget(this.lineKey, generateId)
        .then((raw) => (raw ? (JSON.parse(raw) as Standing) : undefined));
    }
    if (this.mirror && Date.now() - this.mirror.at < LINE_MIRROR_FRESH_MS) return this.mirror.standings.get(generateId);
    this.mirrorLoading ??= this.reloadLine(feed);
    return this.mirrorLoading.then((standings) => standings.get(generateId));
  }

  /** The whole line in one read, kept when no message or rewrite came meanwhile. */
  private reloadLine(feed: RedisFeed): Promise<Map<string, Standing>> {
    const { epoch } = feed;
    const seq = this.mirrorSeq;
    return this.deps.polls
      .hgetall(this.lineKey)
      .then((raw) => {
        const standings = parsedLine(raw);
        if (epoch === feed.epoch && seq === this.mirrorSeq) this.mirror = { standings, at: Date.now() };
        return standings;
      })
      .finally(() => {
        this.mirrorLoading = null;
      });
  }

  async standing({ jobId, generateId }: { jobId: string; generateId: string }): Promise<QueueStanding> {
    const standing = await this.written(generateId);
    if (standing?.jobId !== jobId) return { queuePosition: 0, etaSeconds: 0 };
    const etaSeconds =
      standing.at === undefined
        ? standing.etaSeconds
        : agedEtaSeconds(
            { etaSeconds: standing.etaSeconds, ownSeconds: standing.ownSeconds ?? 0 },
            (Date.now() - standing.at) / 1000,
          );
    return { queuePosition: standing.queuePosition, etaSeconds };
  }

  async predict(userId: string, job: Estimated): Promise<QueueStanding> {
    const line = await this.line();
    // With room under the quota the job goes straight to BullMQ, behind what it holds; else into the turns.
    const hasRoom = (line.busy.get(userId) ?? 0) < this.deps.limits.maxRunningPerUser;
    const queuePosition = line.handedCount + (hasRoom ? 1 : line.backlog.positionIfAdded(userId));
    return { queuePosition, etaSeconds: line.eta(job, queuePosition) };
  }

  /** Ends the wait of a pending rewrite and lets it finish. */
  async close(): Promise<void> {
    this.closed = true;
    this.wake?.();
    await this.chain;
  }
}
