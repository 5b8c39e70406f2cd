import { z } from 'zod';
import type { EngineProgress } from '../engine.js';
import { type SdWebUiClient, SdWebUiError } from './sdwebui-client.js';
import { clamp, decodeImage, type Preview } from './sdwebui-images.js';
import { type GlobalProgress, globalProgressSchema, internalProgressSchema } from './sdwebui-types.js';

const POLL_TIMEOUT_MS = 5_000;
/** Polls without seeing our task before the flight falls back to the global progress (servers without force_task_id). */
const UNSEEN_POLLS_BEFORE_GLOBAL = 4;

const round1 = (value: number) => Math.round(value * 10) / 10;

/** The server the engine's flights poll; what one flight learns of its routes, the next ones use. */
export type FlightServer = {
  client: SdWebUiClient;
  progressIntervalMs: number;
  /** Learnt on the first poll: false once /internal/progress answered 404. */
  internalProgress?: boolean;
};

export type FlightOptions = {
  taskId: string;
  endpoint: 'txt2img' | 'img2img';
  steps: number;
  batch: number;
  onProgress?: (progress: EngineProgress) => void;
};

/**
 * One in-flight generation request, followed by polling: `/internal/progress` for our `force_task_id`, else the
 * global `/sdapi/v1/progress`. An interrupt is global to the server, so it is only sent once our task is the one
 * running.
 */
export class Flight {
  private readonly taskId: string;
  private readonly endpoint: 'txt2img' | 'img2img';
  private readonly steps: number;
  private readonly batch: number;
  private readonly onProgress?: (progress: EngineProgress) => void;
  private done = false;
  private lastPercent = -1;
  private previewId = -1;
  private lastPreview?: Buffer;
  /** Our task as the server last reported it. */
  private taskState: 'unknown' | 'queued' | 'active' | 'completed' = 'unknown';
  private unseenPolls = 0;
  /** This flight reads the global progress (the server lacks /internal/progress or ignores force_task_id). */
  private useGlobal: boolean;
  private interruptWanted = false;
  private interruptSent = false;
  private pollNow = false;
  private readonly polls = new AbortController();
  private wake?: () => void;
  private loop?: Promise<void>;

  constructor(
    private readonly server: FlightServer,
    options: FlightOptions,
  ) {
    this.taskId = options.taskId;
    this.endpoint = options.endpoint;
    this.steps = Math.max(1, Math.round(options.steps));
    this.batch = Math.max(1, Math.round(options.batch));
    this.onProgress = options.onProgress;
    this.useGlobal = server.internalProgress === false;
  }

  /** The caller cancelled the job. */
  get cancelled(): boolean {
    return this.interruptWanted;
  }

  /** The interrupt reached our running task, so the images are cut short. */
  get cut(): boolean {
    return this.interruptWanted && this.interruptSent;
  }

  /** Starts polling (once); the loop ends when the flight lands. */
  follow(): void {
    if (this.loop || this.done) return;
    this.loop = (async () => {
      while (!this.done) {
        if (!this.pollNow) await this.pause();
        this.pollNow = false;
        if (this.done) break;
        await this.poll();
        if (this.interruptWanted && !this.interruptSent && this.taskState === 'active' && !this.done) {
          await this.sendInterrupt();
        }
      }
    })();
  }

  /** The caller cancelled: poll at once, and interrupt as soon as our task is seen running. */
  interrupt(): void {
    this.interruptWanted = true;
    this.pollNow = true;
    this.follow();
    this.wake?.();
  }

  /** We give the job up (the queue may run it elsewhere): stop it rather than let it burn the GPU unseen. */
  abandon(): void {
    if (this.taskState === 'active') void this.sendInterrupt();
  }

  /** The generation request has answered (or failed): polling stops. */
  async land(): Promise<void> {
    this.done = true;
    this.polls.abort();
    this.wake?.();
    await this.loop;
  }

  /** The last progress event of a job that ran to its end, unless the polls already showed it. */
  reportFinished(): void {
    if (!this.onProgress || this.lastPercent >= 100) return;
    const totalSteps = this.steps * this.batch;
    this.onProgress({ step: totalSteps, totalSteps, percent: 100, etaSeconds: 0, imageIndex: this.batch - 1 });
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.server.progressIntervalMs);
      this.wake = done;
    });
  }

  private async sendInterrupt(): Promise<void> {
    if (this.interruptSent) return;
    this.interruptSent = true;
    try {
      await this.server.client.json('POST', '/sdapi/v1/interrupt', z.unknown(), { timeoutMs: POLL_TIMEOUT_MS });
    } catch {
      // The generation request reports a dead server; a lost interrupt only means the job runs to its end.
    }
  }

  /** One progress poll. A failed poll never fails the job: the generation request reports real failures. */
  private async poll(): Promise<void> {
    const { client } = this.server;
    const request = { timeoutMs: POLL_TIMEOUT_MS, signal: this.polls.signal };
    try {
      if (!this.useGlobal && this.server.internalProgress !== false) {
        try {
          const answer = await client.json('POST', '/internal/progress', internalProgressSchema, {
            ...request,
            body: {
              id_task: this.taskId,
              id_live_preview: this.previewId,
              live_preview: Boolean(this.onProgress),
            },
          });
          this.server.internalProgress = true;
          this.taskState = answer.active
            ? 'active'
            : answer.queued
              ? 'queued'
              : answer.completed
                ? 'completed'
                : 'unknown';
          if (this.taskState === 'unknown') {
            if (++this.unseenPolls >= UNSEEN_POLLS_BEFORE_GLOBAL) this.useGlobal = true;
            return;
          }
          this.unseenPolls = 0;
          if (!answer.active) return;
          if (answer.id_live_preview !== null && answer.id_live_preview !== undefined && answer.id_live_preview >= 0)
            this.previewId = answer.id_live_preview;
          const preview = answer.live_preview ? decodeImage(answer.live_preview) : undefined;
          this.report(answer.progress ?? 0, answer.eta ?? 0, preview);
          return;
        } catch (error) {
          if (!(error instanceof SdWebUiError && error.status === 404)) throw error;
          // Older servers and some forks lack the route: the global progress is ours while our request runs.
          this.server.internalProgress = false;
          this.useGlobal = true;
        }
      }
      const query = this.onProgress ? 'false' : 'true';
      const answer = await client.json(
        'GET',
        `/sdapi/v1/progress?skip_current_image=${query}`,
        globalProgressSchema,
        request,
      );
      this.onGlobalProgress(answer);
    } catch {
      // See above: polling is best effort.
    }
  }

  private onGlobalProgress(answer: GlobalProgress): void {
    const state = answer.state ?? {};
    const jobCount = state.job_count ?? 0;
    if (jobCount === 0) {
      this.taskState = 'unknown';
      return;
    }
    // The server names the running job scripts_txt2img / scripts_img2img: another client's other kind is not ours.
    const job = state.job ?? '';
    if (job && !job.includes(this.endpoint)) {
      this.taskState = 'queued';
      return;
    }
    this.taskState = 'active';
    let fraction = answer.progress ?? 0;
    if (jobCount > 0) {
      // Recomputed from the state: the reported progress carries a +0.01 that keeps it from ever being 0.
      const steps = state.sampling_steps ?? 0;
      fraction = ((state.job_no ?? 0) + (steps > 0 ? (state.sampling_step ?? 0) / steps : 0)) / jobCount;
    }
    let preview = answer.current_image ? decodeImage(answer.current_image) : undefined;
    if (preview && this.lastPreview?.equals(preview.data)) preview = undefined;
    if (preview) this.lastPreview = preview.data;
    this.report(fraction, answer.eta_relative ?? 0, preview);
  }

  /** Emits progress only forwards: a preview may repeat the last percent, nothing goes back. */
  private report(progress: number, eta: number, preview: Preview | undefined): void {
    if (this.done || !this.onProgress) return;
    const fraction = clamp(Number.isFinite(progress) ? progress : 0, 0, 1);
    const percent = round1(fraction * 100);
    if (percent < this.lastPercent || (percent === this.lastPercent && !preview)) return;
    this.lastPercent = percent;
    // A1111 reports a fraction; steps are estimated over the batch like the built-in engine counts them.
    const totalSteps = this.steps * this.batch;
    const event: EngineProgress = {
      step: Math.min(totalSteps, Math.round(fraction * totalSteps)),
      totalSteps,
      percent,
      etaSeconds: eta > 0 && Number.isFinite(eta) ? round1(eta) : 0,
      imageIndex: Math.min(this.batch - 1, Math.floor(fraction * this.batch)),
    };
    if (preview) {
      event.preview = preview.data;
      event.previewMime = preview.mime;
    }
    try {
      this.onProgress(event);
    } catch {
      // A listener's failure must not stop the polling of a running job.
    }
  }
}
