import { randomBytes } from 'node:crypto';
import { ENGINE_KINDS, type FormOption } from '@huafang/contracts';
import sharp from 'sharp';
import { z } from 'zod';
import {
  type EngineControlNet,
  EngineError,
  type EngineHealth,
  type EngineImage,
  type EngineJob,
  type EngineModel,
  type EngineProgress,
  type EngineResult,
  formatInfotext,
  type InferenceEngine,
  type PreprocessOptions,
  type RunOptions,
  upscaleInfotext,
} from '../engine.js';
import { addPngText, readPngText } from '../png-text.js';
import { SdWebUiClient, SdWebUiError } from './sdwebui-client.js';
import {
  controlNetModelListSchema,
  controlNetModuleListSchema,
  detectResponseSchema,
  extrasResponseSchema,
  type GenerateInfo,
  type GlobalProgress,
  generateInfoSchema,
  generateResponseSchema,
  globalProgressSchema,
  internalProgressSchema,
  samplersSchema,
  sdModelsSchema,
} from './sdwebui-types.js';

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
const LIST_TIMEOUT_MS = 15_000;
const HEALTH_TIMEOUT_MS = 5_000;
const POLL_TIMEOUT_MS = 5_000;
/** A preprocessor may download its annotator model on first use. */
const DETECT_TIMEOUT_MS = 120_000;
/** Polls without seeing our task before the flight falls back to the global progress (servers without force_task_id). */
const UNSEEN_POLLS_BEFORE_GLOBAL = 4;

/** A1111 ControlNet's control_mode strings, indexed by our ControlMode. */
const CONTROL_MODES = ['Balanced', 'My prompt is more important', 'ControlNet is more important'] as const;
/** Tuning fields every ControlNet unit shows besides the module's own sliders. */
const UNIT_FIELDS = ['weight', 'guidanceStart', 'guidanceEnd', 'controlMode'];
/** Forge's module list has no module_detail: show the resolution and the unit fields. */
const DEFAULT_MODULE_FIELDS = ['processorRes', ...UNIT_FIELDS];

type PreviewMime = NonNullable<EngineProgress['previewMime']>;
type Preview = { data: Buffer; mime: PreviewMime };

/** What the adapter knows of one in-flight generation request. */
type Flight = {
  taskId: string;
  endpoint: 'txt2img' | 'img2img';
  steps: number;
  batch: number;
  onProgress?: (progress: EngineProgress) => void;
  done: boolean;
  lastPercent: number;
  previewId: number;
  lastPreview?: Buffer;
  /** Our task as the server last reported it. */
  taskState: 'unknown' | 'queued' | 'active' | 'completed';
  unseenPolls: number;
  /** This flight reads the global progress (the server lacks /internal/progress or ignores force_task_id). */
  useGlobal: boolean;
  interruptWanted: boolean;
  interruptSent: boolean;
  pollNow: boolean;
  polls: AbortController;
  wake?: () => void;
  loop?: Promise<void>;
};

const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(max, value));
const round1 = (value: number) => Math.round(value * 10) / 10;

/** The image type of some bytes, from their magic numbers (servers may be set to answer JPEG or WebP). */
function sniffImage(data: Buffer): PreviewMime | undefined {
  if (data.length >= 8 && data.readUInt32BE(0) === 0x89504e47) return 'image/png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  return undefined;
}

/** A base64 image, bare or as a data URI. */
function decodeImage(encoded: string): Preview | undefined {
  const comma = encoded.startsWith('data:') ? encoded.indexOf(',') : -1;
  const data = Buffer.from(comma >= 0 ? encoded.slice(comma + 1) : encoded, 'base64');
  const mime = sniffImage(data);
  return mime ? { data, mime } : undefined;
}

async function toPng(image: Preview): Promise<Buffer> {
  return image.mime === 'image/png' ? image.data : sharp(image.data).png().toBuffer();
}

function parseInfo(info: string | null | undefined): GenerateInfo {
  if (!info) return {};
  try {
    const result = generateInfoSchema.safeParse(JSON.parse(info));
    return result.success ? result.data : {};
  } catch {
    return {};
  }
}

/**
 * Our tuning fields of a preprocessor from its ControlNet sliders. The current extension lists the visible ones
 * (resolution, slider_1, slider_2, slider_3); the legacy table holds `null` in a hidden slot, so a null after the
 * first slot still uses up a threshold.
 */
export function fieldsFromSliders(sliders: readonly ({ name?: string | null } | null)[]): string[] {
  const fields: string[] = [];
  const thresholds = ['thresholdA', 'thresholdB'];
  sliders.forEach((slider, index) => {
    if (!slider) {
      if (index > 0) thresholds.shift();
      return;
    }
    if (/resolution/i.test(slider.name ?? '')) {
      if (!fields.includes('processorRes')) fields.push('processorRes');
      return;
    }
    const next = thresholds.shift();
    if (next) fields.push(next);
  });
  return [...fields, ...UNIT_FIELDS];
}

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
  private readonly requestTimeoutMs: number;
  private readonly progressIntervalMs: number;
  private readonly abortAnswerMs: number;
  private readonly upscaler: string;
  /** Learnt on the first poll: false once /internal/progress answered 404. */
  private internalProgress: boolean | undefined;

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
    this.requestTimeoutMs = Math.max(1, options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
    this.progressIntervalMs = Math.max(10, options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS);
    this.abortAnswerMs = Math.max(1, options.abortAnswerMs ?? DEFAULT_ABORT_ANSWER_MS);
    this.upscaler = options.upscaler?.trim() || 'R-ESRGAN 4x+';
  }

  async listModels(): Promise<EngineModel[]> {
    const models = await this.client.json('GET', '/sdapi/v1/sd-models', sdModelsSchema, { timeoutMs: LIST_TIMEOUT_MS });
    return models.map((model) => ({ title: model.title, name: model.model_name || model.title }));
  }

  async listSamplers(): Promise<string[]> {
    const samplers = await this.client.json('GET', '/sdapi/v1/samplers', samplersSchema, {
      timeoutMs: LIST_TIMEOUT_MS,
    });
    return samplers.map((sampler) => sampler.name);
  }

  async listControlNetModels(): Promise<string[]> {
    const answer = await this.client.json('GET', '/controlnet/model_list', controlNetModelListSchema, {
      timeoutMs: LIST_TIMEOUT_MS,
    });
    return answer.model_list;
  }

  async listControlNetModules(): Promise<FormOption[]> {
    const answer = await this.client.json(
      'GET',
      '/controlnet/module_list?alias_names=false',
      controlNetModuleListSchema,
      {
        timeoutMs: LIST_TIMEOUT_MS,
      },
    );
    return answer.module_list.map((name) => {
      const detail = answer.module_detail?.[name];
      const fields = detail ? fieldsFromSliders(detail.sliders ?? []) : DEFAULT_MODULE_FIELDS;
      return { label: name, value: name, moduleName: name, fromConfig: JSON.stringify(fields) };
    });
  }

  async preprocess(controlnetModule: string, image: Buffer, options: PreprocessOptions = {}): Promise<Buffer> {
    // Absent tuning values are left out, so each server applies its own default (Forge has no -1 convention).
    const body: Record<string, unknown> = {
      controlnet_module: controlnetModule,
      controlnet_input_images: [image.toString('base64')],
    };
    if (options.processorRes !== undefined && options.processorRes > 0)
      body.controlnet_processor_res = Math.round(options.processorRes);
    if (options.thresholdA !== undefined && options.thresholdA >= 0) body.controlnet_threshold_a = options.thresholdA;
    if (options.thresholdB !== undefined && options.thresholdB >= 0) body.controlnet_threshold_b = options.thresholdB;
    let answer: z.infer<typeof detectResponseSchema>;
    try {
      answer = await this.client.json('POST', '/controlnet/detect', detectResponseSchema, {
        body,
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

  async health(): Promise<EngineHealth> {
    try {
      const answer = await this.client.json('GET', '/sdapi/v1/progress?skip_current_image=true', globalProgressSchema, {
        timeoutMs: HEALTH_TIMEOUT_MS,
      });
      // job_count is -1 between the start of a job and its first batch, and 0 when idle.
      const busy = (answer.state?.job_count ?? 0) !== 0 || (answer.progress ?? 0) > 0;
      return { ok: true, busy, message: busy ? '正常（正在生成）' : '正常' };
    } catch (error) {
      return { ok: false, busy: false, message: healthMessage(error) };
    }
  }

  async run(job: EngineJob, options: RunOptions = {}): Promise<EngineResult> {
    if (job.mode === 'upscale') return this.upscale(job, options);
    const endpoint = job.mode === 'txt2img' ? 'txt2img' : 'img2img';
    const taskId = `task(huafang-${randomBytes(8).toString('hex')})`;
    const body = generateBody(job, taskId);
    const { signal, onProgress } = options;
    if (signal?.aborted) return { images: [], seed: job.seed, interrupted: true };

    const flight: Flight = {
      taskId,
      endpoint,
      steps: Math.max(1, Math.round(job.steps)),
      batch: Math.max(1, Math.round(job.batchSize)),
      onProgress,
      done: false,
      lastPercent: -1,
      previewId: -1,
      taskState: 'unknown',
      unseenPolls: 0,
      useGlobal: this.internalProgress === false,
      interruptWanted: false,
      interruptSent: false,
      pollNow: false,
      polls: new AbortController(),
    };
    // A server that stopped answering would hold an interrupted job (and a stopping worker) until the request
    // timeout: after an abort its answer is awaited only briefly, then the job ends without images.
    const abandon = new AbortController();
    let abandonTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      flight.interruptWanted = true;
      flight.pollNow = true;
      this.startPolling(flight);
      flight.wake?.();
      abandonTimer = setTimeout(() => abandon.abort(new Error('abandoned after abort')), this.abortAnswerMs);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    if (onProgress) this.startPolling(flight);

    let answer: z.infer<typeof generateResponseSchema>;
    try {
      answer = await this.client.json('POST', `/sdapi/v1/${endpoint}`, generateResponseSchema, {
        body,
        timeoutMs: this.requestTimeoutMs,
        signal: abandon.signal,
      });
    } catch (error) {
      if (abandon.signal.aborted) return { images: [], seed: job.seed, interrupted: true };
      // We give the job up (the queue may run it elsewhere): stop it rather than let it burn the GPU unseen.
      if (error instanceof SdWebUiError && error.reason === 'timeout' && flight.taskState === 'active') {
        void this.sendInterrupt(flight);
      }
      throw error;
    } finally {
      clearTimeout(abandonTimer);
      signal?.removeEventListener('abort', onAbort);
      flight.done = true;
      flight.polls.abort();
      flight.wake?.();
      await flight.loop;
    }

    // Cancelled by the caller; the images are only cut short when the interrupt reached our running task.
    const interrupted = flight.interruptWanted;
    const result = await this.collectImages(job, answer, interrupted && flight.interruptSent);
    if (!interrupted && onProgress && flight.lastPercent < 100) {
      const totalSteps = flight.steps * flight.batch;
      onProgress({ step: totalSteps, totalSteps, percent: 100, etaSeconds: 0, imageIndex: flight.batch - 1 });
    }
    return { ...result, interrupted };
  }

  /**
   * The generated images of an answer. Extensions append images after the batch (ControlNet's detected maps) and a
   * grid may lead it (`index_of_first_image`); `infotexts` has one entry per image, grid included.
   */
  private async collectImages(
    job: EngineJob,
    answer: z.infer<typeof generateResponseSchema>,
    cut: boolean,
  ): Promise<Omit<EngineResult, 'interrupted'>> {
    const info = parseInfo(answer.info);
    const all = answer.images ?? [];
    const first = clamp(Math.round(info.index_of_first_image ?? 0), 0, all.length);
    const texts = info.infotexts ?? [];
    let count = Math.min(Math.max(1, Math.round(job.batchSize)), all.length - first);
    if (texts.length > 0) count = Math.min(count, texts.length - first);
    const images: EngineImage[] = [];
    for (let i = 0; i < count; i++) {
      const decoded = decodeImage(all[first + i]!);
      if (!decoded) continue;
      let png = await toPng(decoded);
      const seed = info.all_seeds?.[i] ?? (info.seed ?? job.seed) + i;
      // A1111 writes `parameters` itself unless PNG info is turned off (or it answered JPEG/WebP).
      let infotext = readPngText(png).parameters;
      if (!infotext) {
        infotext = texts[first + i] || formatInfotext(job, seed);
        png = addPngText(png, 'parameters', infotext);
      }
      const meta = await sharp(png).metadata();
      images.push({
        png,
        seed,
        width: meta.width ?? job.width,
        height: meta.height ?? job.height,
        infotext,
        // One sampling pass paints the whole batch (n_iter is 1), so an interrupt cuts every image of it.
        interrupted: cut,
      });
    }
    return { images, seed: info.seed ?? images[0]?.seed ?? job.seed };
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
      body: {
        image: job.initImage.toString('base64'),
        resize_mode: 0,
        upscaling_resize: factor,
        upscaler_1: this.upscaler,
        show_extras_results: true,
      },
      timeoutMs: this.requestTimeoutMs,
    });
    const decoded = answer.image ? decodeImage(answer.image) : undefined;
    if (!decoded) {
      throw new SdWebUiError(`推理后端暂时不可用：「${this.label}」没有返回图片`, true, 'invalid', '没有返回图片');
    }
    let png = await toPng(decoded);
    const meta = await sharp(png).metadata();
    const width = meta.width ?? Math.round(job.width * factor);
    const height = meta.height ?? Math.round(job.height * factor);
    // Extras keeps the source's `parameters` (the picture's own recipe); a bare source gets ours.
    let infotext = readPngText(png).parameters;
    const recorded = infotext?.match(/(?:^|, )Seed: (\d+)/m)?.[1];
    const seed = recorded ? Number(recorded) : Math.max(0, job.seed);
    if (!infotext) {
      infotext = upscaleInfotext(job, seed, { width, height }, { factor, upscaler: this.upscaler });
      png = addPngText(png, 'parameters', infotext);
    }
    options.onProgress?.({ step: 1, totalSteps: 1, percent: 100, etaSeconds: 0, imageIndex: 0 });
    return { images: [{ png, seed, width, height, infotext, interrupted: false }], seed, interrupted: false };
  }

  private startPolling(flight: Flight): void {
    if (flight.loop || flight.done) return;
    flight.loop = (async () => {
      while (!flight.done) {
        if (!flight.pollNow) await this.pause(flight);
        flight.pollNow = false;
        if (flight.done) break;
        await this.poll(flight);
        if (flight.interruptWanted && !flight.interruptSent && flight.taskState === 'active' && !flight.done) {
          await this.sendInterrupt(flight);
        }
      }
    })();
  }

  private pause(flight: Flight): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        flight.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.progressIntervalMs);
      flight.wake = done;
    });
  }

  /** The interrupt is global to the server: it is only sent while our task is the one running. */
  private async sendInterrupt(flight: Flight): Promise<void> {
    if (flight.interruptSent) return;
    flight.interruptSent = true;
    try {
      await this.client.json('POST', '/sdapi/v1/interrupt', z.unknown(), { timeoutMs: POLL_TIMEOUT_MS });
    } catch {
      // The generation request reports a dead server; a lost interrupt only means the job runs to its end.
    }
  }

  /** One progress poll. A failed poll never fails the job: the generation request reports real failures. */
  private async poll(flight: Flight): Promise<void> {
    const request = { timeoutMs: POLL_TIMEOUT_MS, signal: flight.polls.signal };
    try {
      if (!flight.useGlobal && this.internalProgress !== false) {
        try {
          const answer = await this.client.json('POST', '/internal/progress', internalProgressSchema, {
            ...request,
            body: {
              id_task: flight.taskId,
              id_live_preview: flight.previewId,
              live_preview: Boolean(flight.onProgress),
            },
          });
          this.internalProgress = true;
          flight.taskState = answer.active
            ? 'active'
            : answer.queued
              ? 'queued'
              : answer.completed
                ? 'completed'
                : 'unknown';
          if (flight.taskState === 'unknown') {
            if (++flight.unseenPolls >= UNSEEN_POLLS_BEFORE_GLOBAL) flight.useGlobal = true;
            return;
          }
          flight.unseenPolls = 0;
          if (!answer.active) return;
          if (answer.id_live_preview !== null && answer.id_live_preview !== undefined && answer.id_live_preview >= 0)
            flight.previewId = answer.id_live_preview;
          const preview = answer.live_preview ? decodeImage(answer.live_preview) : undefined;
          this.report(flight, answer.progress ?? 0, answer.eta ?? 0, preview);
          return;
        } catch (error) {
          if (!(error instanceof SdWebUiError && error.status === 404)) throw error;
          // Older servers and some forks lack the route: the global progress is ours while our request runs.
          this.internalProgress = false;
          flight.useGlobal = true;
        }
      }
      const query = flight.onProgress ? 'false' : 'true';
      const answer = await this.client.json(
        'GET',
        `/sdapi/v1/progress?skip_current_image=${query}`,
        globalProgressSchema,
        request,
      );
      this.onGlobalProgress(flight, answer);
    } catch {
      // See above: polling is best effort.
    }
  }

  private onGlobalProgress(flight: Flight, answer: GlobalProgress): void {
    const state = answer.state ?? {};
    const jobCount = state.job_count ?? 0;
    if (jobCount === 0) {
      flight.taskState = 'unknown';
      return;
    }
    // The server names the running job scripts_txt2img / scripts_img2img: another client's other kind is not ours.
    const job = state.job ?? '';
    if (job && !job.includes(flight.endpoint)) {
      flight.taskState = 'queued';
      return;
    }
    flight.taskState = 'active';
    let fraction = answer.progress ?? 0;
    if (jobCount > 0) {
      // Recomputed from the state: the reported progress carries a +0.01 that keeps it from ever being 0.
      const steps = state.sampling_steps ?? 0;
      fraction = ((state.job_no ?? 0) + (steps > 0 ? (state.sampling_step ?? 0) / steps : 0)) / jobCount;
    }
    let preview = answer.current_image ? decodeImage(answer.current_image) : undefined;
    if (preview && flight.lastPreview?.equals(preview.data)) preview = undefined;
    if (preview) flight.lastPreview = preview.data;
    this.report(flight, fraction, answer.eta_relative ?? 0, preview);
  }

  /** Emits progress only forwards: a preview may repeat the last percent, nothing goes back. */
  private report(flight: Flight, progress: number, eta: number, preview: Preview | undefined): void {
    if (flight.done || !flight.onProgress) return;
    const fraction = clamp(Number.isFinite(progress) ? progress : 0, 0, 1);
    const percent = round1(fraction * 100);
    if (percent < flight.lastPercent || (percent === flight.lastPercent && !preview)) return;
    flight.lastPercent = percent;
    // A1111 reports a fraction; steps are estimated over the batch like the built-in engine counts them.
    const totalSteps = flight.steps * flight.batch;
    const event: EngineProgress = {
      step: Math.min(totalSteps, Math.round(fraction * totalSteps)),
      totalSteps,
      percent,
      etaSeconds: eta > 0 && Number.isFinite(eta) ? round1(eta) : 0,
      imageIndex: Math.min(flight.batch - 1, Math.floor(fraction * flight.batch)),
    };
    if (preview) {
      event.preview = preview.data;
      event.previewMime = preview.mime;
    }
    try {
      flight.onProgress(event);
    } catch {
      // A listener's failure must not stop the polling of a running job.
    }
  }
}

/** The txt2img / img2img request of a job (modules/api/models.py field names). */
function generateBody(job: EngineJob, taskId: string): Record<string, unknown> {
  const body: Record<string, unknown> = {
    prompt: job.prompt,
    negative_prompt: job.negativePrompt,
    seed: job.seed,
    sampler_name: job.sampler,
    steps: job.steps,
    cfg_scale: job.cfgScale,
    width: job.width,
    height: job.height,
    batch_size: job.batchSize,
    n_iter: 1,
    override_settings: { sd_model_checkpoint: job.checkpoint },
    override_settings_restore_afterwards: true,
    send_images: true,
    save_images: false,
    force_task_id: taskId,
  };
  if (job.mode === 'img2img' || job.mode === 'inpaint') {
    if (!job.initImage)
      throw new EngineError(job.mode === 'inpaint' ? '局部重绘需要一张原图' : '图生图需要一张原图', false);
    body.init_images = [job.initImage.toString('base64')];
    body.denoising_strength = job.denoisingStrength ?? 0.75;
    body.include_init_images = false;
  }
  if (job.mode === 'inpaint') {
    if (!job.mask) throw new EngineError('局部重绘需要一张蒙版', false);
    body.mask = job.mask.toString('base64');
    // White is repainted (our mask's meaning), starting from the original pixels as the A1111 UI does by default.
    body.inpainting_mask_invert = 0;
    body.inpainting_fill = 1;
    body.mask_blur = 4;
    body.inpaint_full_res = false;
  }
  if (job.controlNets?.length) {
    body.alwayson_scripts = { controlnet: { args: job.controlNets.map(controlNetUnit) } };
  }
  return body;
}

/** One unit of `alwayson_scripts.controlnet.args` (sd-webui-controlnet external_code.ControlNetUnit). */
function controlNetUnit(unit: EngineControlNet): Record<string, unknown> {
  return {
    enabled: true,
    module: unit.module,
    model: unit.model,
    weight: unit.weight ?? 1,
    image: unit.image.toString('base64'),
    resize_mode: 'Crop and Resize',
    processor_res: unit.processorRes ?? -1,
    threshold_a: unit.thresholdA ?? -1,
    threshold_b: unit.thresholdB ?? -1,
    guidance_start: unit.guidanceStart ?? 0,
    guidance_end: unit.guidanceEnd ?? 1,
    control_mode: CONTROL_MODES[unit.controlMode ?? 0] ?? CONTROL_MODES[0],
    pixel_perfect: false,
  };
}

function healthMessage(error: unknown): string {
  if (!(error instanceof SdWebUiError)) return '无法连接：未知错误';
  switch (error.reason) {
    case 'network':
    case 'timeout':
      return `无法连接：${error.detail}`;
    case 'auth':
      return '认证失败，请检查用户名和密码';
    case 'server':
      return `后端出错：${error.detail}`;
    case 'rejected':
      return `接口不可用：${error.detail}（请确认后端以 --api 启动）`;
    case 'redirect':
      return `后端${error.detail}，请填写后端服务本身的地址`;
    default:
      return `后端异常：${error.detail}`;
  }
}
