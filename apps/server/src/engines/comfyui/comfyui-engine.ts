import { randomInt } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ENGINE_KINDS, type FormOption } from '@huafang/contracts';
import {
  EngineError,
  type EngineHealth,
  type EngineJob,
  type EngineModel,
  type EngineResult,
  type InferenceEngine,
  type PreprocessOptions,
  type RunOptions,
} from '../engine.js';
import { ComfyUiClient, ComfyUnavailableError } from './comfyui-client.js';
import {
  type BatchMode,
  buildGenerationGraph,
  buildPreprocessGraph,
  isNoneModule,
  nodeCombo,
  preprocessorOptions,
  type ResolvedPreprocessor,
  resolvePreprocessor,
  samplerDisplayNames,
} from './comfyui-graph.js';
import { ComfyUiImages, toPng } from './comfyui-images.js';
import { parseQueue } from './comfyui-messages.js';
import { ObjectInfoCache } from './comfyui-object-info.js';
import { ComfyUiPromptRunner } from './comfyui-prompt-runner.js';
import { PromptWatch } from './comfyui-prompt-watch.js';
import { uiWorkflow } from './comfyui-workflow.js';

export type ComfyUiEngineOptions = {
  /** e.g. http://gpu-1:8188 (a path prefix such as /api or a proxy's is kept). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer` to the proxy in front; ComfyUI itself has no auth. */
  token?: string;
  /** Chinese name shown in the UI and in failures (default ComfyUI). */
  label?: string;
  /** One HTTP request, body included (default 30 s). */
  requestTimeoutMs?: number;
  /** A whole job, queue wait included (default 10 min). */
  jobTimeoutMs?: number;
  /** How often /history is polled once the socket is gone (default 1 s). */
  pollIntervalMs?: number;
  /** How a batch is painted (default sequential: seed + i per image, see BatchMode). */
  batchMode?: BatchMode;
};

const MAX_SEED = 4294967295;
/** A health check and a socket handshake must be quick: they never wait longer than this. */
const HEALTH_TIMEOUT_MS = 5_000;

/** A checkpoint file name as people say it: sd15/dreamshaper_8.safetensors → dreamshaper_8. */
function modelDisplayName(title: string): string {
  const base = title.split(/[\\/]/).pop() ?? title;
  return base.replace(/\.(safetensors|ckpt|pt|pth|bin|gguf|sft)$/i, '') || title;
}

const clampInt = (value: number, min: number, max: number, fallback: number) =>
  Number.isFinite(value) ? Math.max(min, Math.min(max, Math.round(value))) : fallback;

/** A job with the sizes ComfyUI works at: latents are 1/8 of the picture, so sides are multiples of 8. */
function normalizeJob(job: EngineJob): EngineJob {
  const side = (value: number) =>
    Number.isFinite(value) ? Math.max(64, Math.min(8192, Math.round(value / 8) * 8)) : 512;
  return {
    ...job,
    width: side(job.width),
    height: side(job.height),
    steps: clampInt(job.steps, 1, 1000, 20),
    batchSize: clampInt(job.batchSize, 1, 64, 1),
  };
}

/**
 * ComfyUI as an inference engine: jobs become API-format graphs, images go up through /upload/image, the run
 * is followed over the WebSocket (progress, previews, end) with /history as the fallback, results come from /view.
 */
export class ComfyUiEngine implements InferenceEngine {
  readonly kind = 'comfyui' as const;
  readonly label: string;
  private readonly client: ComfyUiClient;
  private readonly objectInfo: ObjectInfoCache;
  private readonly images: ComfyUiImages;
  private readonly runner: ComfyUiPromptRunner;
  private readonly healthTimeoutMs: number;
  private readonly jobTimeoutMs: number;
  private readonly batchMode: BatchMode;

  constructor(options: ComfyUiEngineOptions) {
    this.label = options.label?.trim() || ENGINE_KINDS[this.kind].label;
    const requestTimeoutMs = Math.max(1, options.requestTimeoutMs ?? 30_000);
    this.healthTimeoutMs = Math.min(requestTimeoutMs, HEALTH_TIMEOUT_MS);
    this.jobTimeoutMs = Math.max(1, options.jobTimeoutMs ?? 600_000);
    this.batchMode = options.batchMode ?? 'sequential';
    this.client = new ComfyUiClient({
      baseUrl: options.baseUrl,
      token: options.token,
      label: this.label,
      requestTimeoutMs,
    });
    this.objectInfo = new ObjectInfoCache(this.client);
    this.images = new ComfyUiImages(this.client);
    this.runner = new ComfyUiPromptRunner({
      client: this.client,
      handshakeTimeoutMs: this.healthTimeoutMs,
      jobTimeoutMs: this.jobTimeoutMs,
      pollIntervalMs: Math.max(5, options.pollIntervalMs ?? 1_000),
    });
  }

  async listModels(): Promise<EngineModel[]> {
    const info = await this.objectInfo.get();
    return nodeCombo(info, 'CheckpointLoaderSimple', 'ckpt_name').map((title) => ({
      title,
      name: modelDisplayName(title),
    }));
  }

  async listSamplers(): Promise<string[]> {
    const info = await this.objectInfo.get();
    return samplerDisplayNames(nodeCombo(info, 'KSampler', 'sampler_name'), nodeCombo(info, 'KSampler', 'scheduler'));
  }

  async listControlNetModules(): Promise<FormOption[]> {
    return preprocessorOptions(await this.objectInfo.get());
  }

  async listControlNetModels(): Promise<string[]> {
    return nodeCombo(await this.objectInfo.get(), 'ControlNetLoader', 'control_net_name');
  }

  async health(): Promise<EngineHealth> {
    try {
      const [, queueBody] = await Promise.all([
        this.client.getJson('/system_stats', this.healthTimeoutMs),
        this.client.getJson('/queue', this.healthTimeoutMs),
      ]);
      const queue = parseQueue(queueBody);
      const busy = queue.running.length > 0;
      return { ok: true, busy, message: busy ? `正常（正在生成，排队 ${queue.pending.length} 个）` : '正常' };
    } catch (error) {
      const reason =
        error instanceof ComfyUnavailableError
          ? error.reason
          : error instanceof EngineError
            ? error.message
            : '未知错误';
      return { ok: false, busy: false, message: `无法连接：${reason}` };
    }
  }

  async preprocess(controlnetModule: string, image: Buffer, options: PreprocessOptions = {}): Promise<Buffer> {
    if (isNoneModule(controlnetModule)) return toPng(image);
    const deadline = performance.now() + this.jobTimeoutMs;
    const preprocessor = resolvePreprocessor(controlnetModule, await this.objectInfo.get(), options);
    if (!preprocessor) throw new EngineError(`该后端不支持预处理器：${controlnetModule}`, false);
    if (!preprocessor.classType) return toPng(image);
    const name = await this.images.upload(image);
    const watch = new PromptWatch(new Map(), 1);
    const { entry } = await this.runner.execute(buildPreprocessGraph(name, preprocessor), watch, deadline);
    const ref = entry ? [...entry.outputs.values()].flat()[0] : undefined;
    if (!ref) throw this.client.unavailable('预处理没有返回图像');
    return toPng(await this.images.view(ref));
  }

  async run(input: EngineJob, options: RunOptions = {}): Promise<EngineResult> {
    const deadline = performance.now() + this.jobTimeoutMs;
    const job = normalizeJob(input);
    // ComfyUI has no "random" seed: -1 is drawn here, so the seed used can be reported.
    const seed = input.seed < 0 || !Number.isFinite(input.seed) ? randomInt(0, MAX_SEED) : Math.floor(input.seed);
    if (job.mode !== 'txt2img' && !job.initImage) {
      const what = { upscale: '高清放大', inpaint: '局部重绘', img2img: '图生图' }[job.mode];
      throw new EngineError(`${what}需要一张原图`, false);
    }
    if (job.mode === 'inpaint' && !job.mask) throw new EngineError('局部重绘需要一张蒙版', false);
    const stopped = (): EngineResult => ({ images: [], seed, interrupted: true });
    const preprocessors = await this.resolvePreprocessors(job);
    if (options.signal?.aborted) return stopped();

    // Uploads first: the graph refers to the names the server gives the files.
    const init = job.initImage && job.mode !== 'txt2img' ? await this.images.upload(job.initImage) : undefined;
    const mask = job.mode === 'inpaint' && job.mask ? await this.images.upload(job.mask) : undefined;
    const controls: string[] = [];
    if (job.mode !== 'upscale')
      for (const unit of job.controlNets ?? []) controls.push(await this.images.upload(unit.image));
    if (options.signal?.aborted) return stopped();

    const plan = buildGenerationGraph(job, {
      seed,
      images: { init, mask, controls },
      preprocessors,
      batchMode: this.batchMode,
    });
    // The UI workflow rides along so ComfyUI writes it into the PNGs; widget order comes from /object_info.
    const info = await this.objectInfo.get().catch(() => ({}));
    const extraPngInfo = { workflow: uiWorkflow(plan.graph, info) };
    const watch = new PromptWatch(plan.samplers, job.steps, options.onProgress);
    const execution = await this.runner.execute(plan.graph, watch, deadline, options.signal, extraPngInfo);
    const images = execution.entry ? await this.images.collect(execution.entry, plan, job) : [];
    if (!execution.interrupted) watch.complete();
    return { images, seed: images[0]?.seed ?? seed, interrupted: execution.interrupted };
  }

  private async resolvePreprocessors(job: EngineJob): Promise<ResolvedPreprocessor[]> {
    const units = job.mode === 'upscale' ? [] : (job.controlNets ?? []);
    if (units.length === 0) return [];
    const info = units.some((unit) => !isNoneModule(unit.module)) ? await this.objectInfo.get() : {};
    return units.map((unit) => {
      const resolved = resolvePreprocessor(unit.module, info, unit);
      if (!resolved) throw new EngineError(`该后端不支持预处理器：${unit.module}`, false);
      return resolved;
    });
  }
}
