import { randomBytes } from 'node:crypto';
import { ENGINE_KINDS, type FormOption } from '@huafang/contracts';
import type { z } from 'zod';
import {
  type EngineAsset,
  EngineError,
  type EngineHealth,
  type EngineJob,
  type EngineModel,
  type EngineResult,
  type InferenceEngine,
  type PreprocessOptions,
  type RunOptions,
} from '../engine.js';
import {
  listAssets,
  listControlNetModels,
  listControlNetModules,
  listModels,
  listSamplers,
} from './sdwebui-catalog.js';
import { SdWebUiClient, SdWebUiError } from './sdwebui-client.js';
import { Flight, type FlightServer } from './sdwebui-flight.js';
import { checkHealth } from './sdwebui-health.js';
import { clamp, decodeImage, generatedImages, toPng, upscaledImage } from './sdwebui-images.js';
import { detectBody, extrasBody, generateBody } from './sdwebui-payloads.js';
import { detectResponseSchema, extrasResponseSchema, generateResponseSchema } from './sdwebui-types.js';

export type SdWebUiEngineOptions = {
  /** e.g. http://127.0.0.1:7860 (a path prefix behind a proxy is kept). */
  baseUrl: string;
  /** HTTP Basic credentials of `--api-auth user:password`. */
  username?: string;
  password?: string;
  label?: string;
  /** The generation request (which A1111 answers only when done), default 10 minutes. */
  requestTimeoutMs?: number;
  /** How often progress is polled while a job runs, default 500 ms. */
  progressIntervalMs?: number;
  /** After an abort, how long the generation request's answer (the images painted so far) is awaited, default 15 s. */
  abortAnswerMs?: number;
  /** Upscaler of the 高清放大 mode (extras), default `R-ESRGAN 4x+`, which A1111 and Forge ship. */
  upscaler?: string;
};

const DEFAULT_REQUEST_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_PROGRESS_INTERVAL_MS = 500;
const DEFAULT_ABORT_ANSWER_MS = 15_000;
/** A preprocessor may download its annotator model on first use. */
const DETECT_TIMEOUT_MS = 120_000;

/**
 * AUTOMATIC1111 / Forge (`--api`) over HTTP. Models switch per request (`override_settings`, never
 * `POST /options`, which would race other users); progress comes from `/internal/progress` for our
 * `force_task_id`, else from the global `/sdapi/v1/progress`; an abort calls the global `/sdapi/v1/interrupt`
 * only once our task is the one running, and keeps what the server painted so far.
 */
export class SdWebUiEngine implements InferenceEngine {
  readonly kind = 'sdwebui' as const;
  readonly label: string;
  private readonly client: SdWebUiClient;
  /** Shared by every flight of this engine. */
  private readonly server: FlightServer;
  private readonly requestTimeoutMs: number;
  private readonly abortAnswerMs: number;
  private readonly upscaler: string;

  constructor(options: SdWebUiEngineOptions) {
    let host = options.baseUrl;
    try {
      host = new URL(options.baseUrl).host;
    } catch {
      // An invalid URL fails on the first request with a clear message; the label only needs some text.
    }
    this.label = options.label?.trim() || `${ENGINE_KINDS[this.kind].label}（${host}）`;
    this.client = new SdWebUiClient({
      baseUrl: options.baseUrl,
      username: options.username,
      password: options.password,
      label: this.label,
    });
    this.server = {
      client: this.client,
      progressIntervalMs: Math.max(10, options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS),
    };
    this.requestTimeoutMs = Math.max(1, options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
    this.abortAnswerMs = Math.max(1, options.abortAnswerMs ?? DEFAULT_ABORT_ANSWER_MS);
    this.upscaler = options.upscaler?.trim() || 'R-ESRGAN 4x+';
  }

  listModels(): Promise<EngineModel[]> {
    return listModels(this.client);
  }

  listAssets(): Promise<EngineAsset[]> {
    return listAssets(this.client);
  }

  listSamplers(): Promise<string[]> {
    return listSamplers(this.client);
  }

  listControlNetModels(): Promise<string[]> {
    return listControlNetModels(this.client);
  }

  listControlNetModules(): Promise<FormOption[]> {
    return listControlNetModules(this.client);
  }

  health(): Promise<EngineHealth> {
    return checkHealth(this.client);
  }

  async preprocess(controlnetModule: string, image: Buffer, options: PreprocessOptions = {}): Promise<Buffer> {
    let answer: z.infer<typeof detectResponseSchema>;
    try {
      answer = await this.client.json('POST', '/controlnet/detect', detectResponseSchema, {
        body: detectBody(controlnetModule, image, options),
        timeoutMs: DETECT_TIMEOUT_MS,
      });
    } catch (error) {
      if (error instanceof SdWebUiError && error.status === 422) {
        throw new EngineError(`预处理器不存在：${controlnetModule}`, false, { cause: error });
      }
      throw error;
    }
    const first = answer.images?.[0];
    const decoded = first ? decodeImage(first) : undefined;
    if (!decoded) throw new EngineError(`预处理器「${controlnetModule}」没有返回图片`, false);
    return toPng(decoded);
  }

  async run(job: EngineJob, options: RunOptions = {}): Promise<EngineResult> {
    if (job.mode === 'upscale') return this.upscale(job, options);
    const endpoint = job.mode === 'txt2img' ? 'txt2img' : 'img2img';
    const taskId = `task(huafang-${randomBytes(8).toString('hex')})`;
    const body = generateBody(job, taskId);
    const { signal, onProgress } = options;
    if (signal?.aborted) return { images: [], seed: job.seed, interrupted: true };

    const flight = new Flight(this.server, { taskId, endpoint, steps: job.steps, batch: job.batchSize, onProgress });
    // A server that stopped answering would hold an interrupted job (and a stopping worker) until the request
    // timeout: after an abort its answer is awaited only briefly, then the job ends without images.
    const abandon = new AbortController();
    let abandonTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      flight.interrupt();
      abandonTimer = setTimeout(() => abandon.abort(new Error('abandoned after abort')), this.abortAnswerMs);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    if (onProgress) flight.follow();

    let answer: z.infer<typeof generateResponseSchema>;
    try {
      answer = await this.client.json('POST', `/sdapi/v1/${endpoint}`, generateResponseSchema, {
        body,
        timeoutMs: this.requestTimeoutMs,
        signal: abandon.signal,
      });
    } catch (error) {
      if (abandon.signal.aborted) return { images: [], seed: job.seed, interrupted: true };
      if (error instanceof SdWebUiError && error.reason === 'timeout') flight.abandon();
      throw error;
    } finally {
      clearTimeout(abandonTimer);
      signal?.removeEventListener('abort', onAbort);
      await flight.land();
    }

    // Cancelled by the caller; the images are only cut short when the interrupt reached our running task.
    const interrupted = flight.cancelled;
    const result = await generatedImages(job, answer, flight.cut);
    if (!interrupted) flight.reportFinished();
    return { ...result, interrupted };
  }

  /**
   * 高清放大 through the extras tab (`/sdapi/v1/extra-single-image`): a real upscaler model resizes the image as it
   * is, where img2img would repaint it and drift from the original. Extras has no progress and no interrupt.
   */
  private async upscale(job: EngineJob, options: RunOptions): Promise<EngineResult> {
    if (!job.initImage) throw new EngineError('高清放大需要一张原图', false);
    const factor = clamp(job.upscaleFactor ?? 2, 1, 8);
    if (options.signal?.aborted) return { images: [], seed: job.seed, interrupted: true };
    const answer = await this.client.json('POST', '/sdapi/v1/extra-single-image', extrasResponseSchema, {
      body: extrasBody(job.initImage, factor, this.upscaler),
      timeoutMs: this.requestTimeoutMs,
    });
    const decoded = answer.image ? decodeImage(answer.image) : undefined;
    if (!decoded) {
      throw new SdWebUiError(`推理后端暂时不可用：「${this.label}」没有返回图片`, true, 'invalid', '没有返回图片');
    }
    const image = await upscaledImage(job, decoded, { factor, upscaler: this.upscaler });
    options.onProgress?.({ step: 1, totalSteps: 1, percent: 100, etaSeconds: 0, imageIndex: 0 });
    return { images: [image], seed: image.seed, interrupted: false };
  }
}
