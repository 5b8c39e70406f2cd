import { randomInt, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ENGINE_KINDS, type FormOption } from '@huafang/contracts';
import sharp from 'sharp';
import WebSocket, { type RawData } from 'ws';
import {
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
import { addPngText } from '../png-text.js';
import { ComfyUiClient, ComfyUnavailableError } from './comfyui-client.js';
import {
  type BatchMode,
  buildGenerationGraph,
  buildPreprocessGraph,
  type ComfyGraph,
  type ComfyObjectInfo,
  type GraphPlan,
  isNoneModule,
  nodeCombo,
  parseObjectInfo,
  preprocessorOptions,
  type ResolvedPreprocessor,
  resolvePreprocessor,
  samplerDisplayNames,
} from './comfyui-graph.js';

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
/** /object_info is large on servers with many custom nodes: the lists share one fetch for a while. */
const OBJECT_INFO_TTL_MS = 30_000;
const HEALTH_TIMEOUT_MS = 5_000;
/** After an interrupt, how long we wait for the server to confirm it before returning what we have. */
const ABORT_GRACE_MS = 10_000;
/** ComfyUI sends execution_success before it writes history: how long the result may take to appear. */
const HISTORY_WAIT_MS = 15_000;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const clampInt = (value: number, min: number, max: number, fallback: number) =>
  Number.isFinite(value) ? Math.max(min, Math.min(max, Math.round(value))) : fallback;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const oneLine = (text: string, max = 300) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const isPng = (bytes: Buffer) => bytes.subarray(0, 8).equals(PNG_SIGNATURE);

function imageKind(bytes: Buffer): { ext: string; mime: string } {
  if (isPng(bytes)) return { ext: 'png', mime: 'image/png' };
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return { ext: 'jpg', mime: 'image/jpeg' };
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
    return { ext: 'webp', mime: 'image/webp' };
  }
  return { ext: 'png', mime: 'application/octet-stream' };
}

async function toPng(bytes: Buffer): Promise<Buffer> {
  return isPng(bytes) ? bytes : sharp(bytes).png().toBuffer();
}

/** A checkpoint file name as people say it: sd15/dreamshaper_8.safetensors → dreamshaper_8. */
function modelDisplayName(title: string): string {
  const base = title.split(/[\\/]/).pop() ?? title;
  return base.replace(/\.(safetensors|ckpt|pt|pth|bin|gguf|sft)$/i, '') || title;
}

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

export type PreviewFrame = { bytes: Buffer; mime: 'image/jpeg' | 'image/png' | 'image/webp'; promptId?: string };

/**
 * A binary socket frame: 4-byte big-endian event type. Type 1 is a preview (4-byte format, 1 JPEG / 2 PNG, then
 * the bytes); newer servers may send type 4, a preview with JSON metadata (4-byte length, JSON, bytes).
 */
export function parsePreviewFrame(frame: Buffer): PreviewFrame | null {
  if (frame.length < 8) return null;
  const type = frame.readUInt32BE(0);
  if (type === 1) {
    const format = frame.readUInt32BE(4);
    const mime = format === 1 ? 'image/jpeg' : format === 2 ? 'image/png' : null;
    return mime ? { bytes: frame.subarray(8), mime } : null;
  }
  if (type === 4) {
    const length = frame.readUInt32BE(4);
    if (8 + length > frame.length) return null;
    let meta: unknown;
    try {
      meta = JSON.parse(frame.toString('utf8', 8, 8 + length));
    } catch {
      return null;
    }
    if (!isRecord(meta)) return null;
    const mime = meta.image_type;
    if (mime !== 'image/jpeg' && mime !== 'image/png' && mime !== 'image/webp') return null;
    const promptId = typeof meta.prompt_id === 'string' ? meta.prompt_id : undefined;
    return { bytes: frame.subarray(8 + length), mime, promptId };
  }
  return null;
}

type Terminal = { kind: 'success' } | { kind: 'interrupted' } | { kind: 'error'; message: string };
type OutputImage = { filename: string; subfolder: string; type: string };
type HistoryEntry = { outputs: Map<string, OutputImage[]>; terminal: Terminal };
type QueueState = { running: string[]; pending: string[] };

function executionErrorMessage(data: Record<string, unknown>): string {
  const node = typeof data.node_type === 'string' && data.node_type ? `（${data.node_type}）` : '';
  const exception = typeof data.exception_message === 'string' ? oneLine(data.exception_message) : '';
  return `推理后端执行任务失败${node}：${exception || '未知错误'}`;
}

/** The 400 of /prompt as one Chinese line: ComfyUI's message, then the first node errors. */
function refusalMessage(body: unknown): string {
  const parts: string[] = [];
  if (isRecord(body) && isRecord(body.error)) {
    const { message, details } = body.error;
    if (typeof message === 'string' && message)
      parts.push(typeof details === 'string' && details ? `${message}：${details}` : message);
  }
  if (isRecord(body) && isRecord(body.node_errors)) {
    for (const [id, node] of Object.entries(body.node_errors).slice(0, 3)) {
      if (!isRecord(node) || !Array.isArray(node.errors)) continue;
      const errors = node.errors
        .filter(isRecord)
        .map((e) => [e.message, e.details].filter((t) => typeof t === 'string' && t).join('：'))
        .filter(Boolean);
      const name = typeof node.class_type === 'string' ? node.class_type : '节点';
      if (errors.length > 0) parts.push(`${name}（#${id}）${errors.join('；')}`);
    }
  }
  return `推理后端拒绝了任务：${oneLine(parts.join('；') || '任务无效', 400)}`;
}

function parseHistoryEntry(body: unknown, promptId: string): HistoryEntry | null {
  if (!isRecord(body)) return null;
  const entry = body[promptId];
  if (!isRecord(entry)) return null;
  const outputs = new Map<string, OutputImage[]>();
  if (isRecord(entry.outputs)) {
    for (const [node, output] of Object.entries(entry.outputs)) {
      if (!isRecord(output) || !Array.isArray(output.images)) continue;
      const images = output.images.filter(isRecord).flatMap((image) =>
        typeof image.filename === 'string'
          ? [
              {
                filename: image.filename,
                subfolder: typeof image.subfolder === 'string' ? image.subfolder : '',
                type: typeof image.type === 'string' ? image.type : 'output',
              },
            ]
          : [],
      );
      outputs.set(node, images);
    }
  }
  let terminal: Terminal = { kind: 'success' };
  const status = isRecord(entry.status) ? entry.status : null;
  if (status && status.status_str === 'error') {
    const messages = Array.isArray(status.messages) ? status.messages : [];
    const find = (name: string) => messages.find((m): m is [string, unknown] => Array.isArray(m) && m[0] === name);
    const failed = find('execution_error');
    if (find('execution_interrupted')) terminal = { kind: 'interrupted' };
    else terminal = { kind: 'error', message: executionErrorMessage(isRecord(failed?.[1]) ? failed[1] : {}) };
  }
  return { outputs, terminal };
}

function parseQueue(body: unknown): QueueState {
  const ids = (items: unknown) =>
    Array.isArray(items)
      ? items.flatMap((item) => (Array.isArray(item) && typeof item[1] === 'string' ? [item[1]] : []))
      : [];
  return isRecord(body)
    ? { running: ids(body.queue_running), pending: ids(body.queue_pending) }
    : { running: [], pending: [] };
}

/**
 * What the socket tells about one prompt. The socket is opened per run with a fresh clientId, so ComfyUI sends
 * our execution events to it alone; events still carry prompt_id and are checked, since a prompt queued without
 * a client_id is broadcast to every socket.
 */
class PromptWatch {
  promptId: string | null = null;
  started = false;
  terminal: Terminal | null = null;
  entry: HistoryEntry | null = null;
  socketLost = false;
  callbackError: unknown = null;
  private executingOurs = false;
  private buffered: { data: Buffer; binary: boolean }[] = [];
  private readonly stepsDone = new Map<string, number>();
  private readonly samplerMax = new Map<string, number>();
  private lastProgress: EngineProgress | null = null;
  private heldPreview: { bytes: Buffer; mime: PreviewFrame['mime'] } | null = null;
  private firstProgressAt = 0;
  private firstProgressStep = 0;
  private wakeUp: (() => void) | null = null;
  private dirty = false;

  constructor(
    private readonly samplers: ReadonlyMap<string, number>,
    private readonly defaultSteps: number,
    private readonly onProgress?: (progress: EngineProgress) => void,
  ) {}

  setPrompt(promptId: string): void {
    this.promptId = promptId;
    // Events can arrive before POST /prompt answers: they waited here until we knew our id.
    for (const message of this.buffered.splice(0)) this.handle(message.data, message.binary);
  }

  receive(data: Buffer, binary: boolean): void {
    if (this.promptId === null) this.buffered.push({ data, binary });
    else this.handle(data, binary);
  }

  lose(): void {
    this.socketLost = true;
    this.wake();
  }

  finish(terminal: Terminal): void {
    this.terminal ??= terminal;
    this.wake();
  }

  wake(): void {
    this.dirty = true;
    const wakeUp = this.wakeUp;
    this.wakeUp = null;
    wakeUp?.();
  }

  /** Until something happens (an event, the socket closing, an abort) or ms pass. */
  wait(ms: number): Promise<void> {
    if (this.dirty) {
      this.dirty = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        this.dirty = false;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.wakeUp = done;
    });
  }

  private handle(data: Buffer, binary: boolean): void {
    if (binary) {
      const frame = parsePreviewFrame(data);
      if (frame && (frame.promptId ? frame.promptId === this.promptId : this.executingOurs)) this.preview(frame);
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(data.toString('utf8'));
    } catch {
      return;
    }
    if (!isRecord(message) || typeof message.type !== 'string' || !isRecord(message.data)) return;
    const event = message.data;
    const ours = event.prompt_id === this.promptId;
    switch (message.type) {
      case 'execution_start':
        this.executingOurs = ours;
        if (ours) this.started = true;
        break;
      case 'execution_cached':
      case 'executed':
        if (ours) this.started = true;
        break;
      case 'executing':
        if (typeof event.prompt_id === 'string' && !ours) this.executingOurs = false;
        if (!ours) break;
        this.started = true;
        this.executingOurs = event.node !== null;
        if (event.node === null) this.finish({ kind: 'success' });
        break;
      case 'progress': {
        // Older servers leave prompt_id out of progress; then it is ours while our prompt runs.
        const mine = event.prompt_id === undefined ? this.executingOurs : ours;
        if (mine && typeof event.value === 'number' && typeof event.max === 'number') {
          this.started = true;
          this.progress(typeof event.node === 'string' ? event.node : undefined, event.value, event.max);
        }
        break;
      }
      case 'execution_success':
        if (ours) this.finish({ kind: 'success' });
        break;
      case 'execution_interrupted':
        if (ours) this.finish({ kind: 'interrupted' });
        break;
      case 'execution_error':
        if (ours) this.finish({ kind: 'error', message: executionErrorMessage(event) });
        break;
    }
    this.wake();
  }

  private progress(node: string | undefined, value: number, max: number): void {
    // Only the samplers count: other nodes (preprocessors, tiled decodes) report progress of their own.
    const sampler = node ?? (this.samplers.size === 1 ? [...this.samplers.keys()][0] : undefined);
    if (sampler === undefined || !this.samplers.has(sampler) || max <= 0) return;
    this.samplerMax.set(sampler, max);
    this.stepsDone.set(sampler, Math.max(this.stepsDone.get(sampler) ?? 0, Math.min(value, max)));
    this.emit(this.samplers.get(sampler) ?? 0);
  }

  private preview(frame: PreviewFrame): void {
    const preview = { bytes: frame.bytes, mime: frame.mime };
    if (!this.lastProgress) {
      this.heldPreview = preview;
      return;
    }
    // ComfyUI sends a step's preview right after its progress event: the same step again, now with the picture.
    this.deliver({ ...this.lastProgress, preview: preview.bytes, previewMime: preview.mime });
  }

  private emit(imageIndex: number): void {
    const perSampler = [...this.samplerMax.values()].at(-1) ?? this.defaultSteps;
    let totalSteps = 0;
    for (const node of this.samplers.keys()) totalSteps += this.samplerMax.get(node) ?? perSampler;
    let done = 0;
    for (const steps of this.stepsDone.values()) done += steps;
    const last = this.lastProgress;
    const step = Math.max(last?.step ?? 0, done);
    const percent = Math.min(100, Math.max(last?.percent ?? 0, Math.round((step / totalSteps) * 1000) / 10));
    const now = performance.now();
    if (!last) {
      this.firstProgressAt = now;
      this.firstProgressStep = step;
    }
    const rate = (step - this.firstProgressStep) / Math.max(1, now - this.firstProgressAt);
    const etaSeconds = rate > 0 ? Math.round(((totalSteps - step) / rate / 1000) * 10) / 10 : 0;
    const progress: EngineProgress = { step, totalSteps, percent, etaSeconds, imageIndex };
    this.lastProgress = progress;
    const held = this.heldPreview;
    this.heldPreview = null;
    this.deliver(held ? { ...progress, preview: held.bytes, previewMime: held.mime } : progress);
  }

  /** Final 100 % for jobs whose samplers reported less (or, like upscale, nothing). */
  complete(): void {
    if (this.lastProgress?.percent === 100 || !this.onProgress) return;
    const totalSteps = this.lastProgress?.totalSteps ?? Math.max(1, this.samplers.size * this.defaultSteps);
    this.deliver({
      step: totalSteps,
      totalSteps,
      percent: 100,
      etaSeconds: 0,
      imageIndex: Math.max(0, this.samplers.size - 1),
    });
  }

  private deliver(progress: EngineProgress): void {
    if (!this.onProgress || this.callbackError) return;
    try {
      this.onProgress(progress);
    } catch (error) {
      // A throwing listener must not kill the socket handler; the run fails with its error instead.
      this.callbackError = error ?? new Error('onProgress failed');
      this.wake();
    }
  }
}

const toBuffer = (data: RawData): Buffer =>
  Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);

type Execution = { interrupted: boolean; entry: HistoryEntry | null };
type CancelState = 'interrupting' | 'removed' | 'finished';

/**
 * ComfyUI as an inference engine: jobs become API-format graphs, images go up through /upload/image, the run
 * is followed over the WebSocket (progress, previews, end) with /history as the fallback, results come from /view.
 */
export class ComfyUiEngine implements InferenceEngine {
  readonly kind = 'comfyui' as const;
  readonly label: string;
  private readonly client: ComfyUiClient;
  private readonly requestTimeoutMs: number;
  private readonly jobTimeoutMs: number;
  private readonly pollIntervalMs: number;
  private readonly batchMode: BatchMode;
  private objectInfoCache: { at: number; value: Promise<ComfyObjectInfo> } | null = null;

  constructor(options: ComfyUiEngineOptions) {
    this.label = options.label?.trim() || ENGINE_KINDS[this.kind].label;
    this.requestTimeoutMs = Math.max(1, options.requestTimeoutMs ?? 30_000);
    this.jobTimeoutMs = Math.max(1, options.jobTimeoutMs ?? 600_000);
    this.pollIntervalMs = Math.max(5, options.pollIntervalMs ?? 1_000);
    this.batchMode = options.batchMode ?? 'sequential';
    this.client = new ComfyUiClient({
      baseUrl: options.baseUrl,
      token: options.token,
      label: this.label,
      requestTimeoutMs: this.requestTimeoutMs,
    });
  }

  async listModels(): Promise<EngineModel[]> {
    const info = await this.objectInfo();
    return nodeCombo(info, 'CheckpointLoaderSimple', 'ckpt_name').map((title) => ({
      title,
      name: modelDisplayName(title),
    }));
  }

  async listSamplers(): Promise<string[]> {
    const info = await this.objectInfo();
    return samplerDisplayNames(nodeCombo(info, 'KSampler', 'sampler_name'), nodeCombo(info, 'KSampler', 'scheduler'));
  }

  async listControlNetModules(): Promise<FormOption[]> {
    return preprocessorOptions(await this.objectInfo());
  }

  async listControlNetModels(): Promise<string[]> {
    return nodeCombo(await this.objectInfo(), 'ControlNetLoader', 'control_net_name');
  }

  async health(): Promise<EngineHealth> {
    const timeout = Math.min(this.requestTimeoutMs, HEALTH_TIMEOUT_MS);
    try {
      const [, queueBody] = await Promise.all([
        this.client.getJson('/system_stats', timeout),
        this.client.getJson('/queue', timeout),
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
    const preprocessor = resolvePreprocessor(controlnetModule, await this.objectInfo(), options);
    if (!preprocessor) throw new EngineError(`该后端不支持预处理器：${controlnetModule}`, false);
    if (!preprocessor.classType) return toPng(image);
    const name = await this.upload(image);
    const watch = new PromptWatch(new Map(), 1);
    const { entry } = await this.execute(buildPreprocessGraph(name, preprocessor), watch, deadline);
    const ref = entry ? [...entry.outputs.values()].flat()[0] : undefined;
    if (!ref) throw this.client.unavailable('预处理没有返回图像');
    return toPng(await this.view(ref));
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
    const init = job.initImage && job.mode !== 'txt2img' ? await this.upload(job.initImage) : undefined;
    const mask = job.mode === 'inpaint' && job.mask ? await this.upload(job.mask) : undefined;
    const controls: string[] = [];
    if (job.mode !== 'upscale') for (const unit of job.controlNets ?? []) controls.push(await this.upload(unit.image));
    if (options.signal?.aborted) return stopped();

    const plan = buildGenerationGraph(job, {
      seed,
      images: { init, mask, controls },
      preprocessors,
      batchMode: this.batchMode,
    });
    const watch = new PromptWatch(plan.samplers, job.steps, options.onProgress);
    const execution = await this.execute(plan.graph, watch, deadline, options.signal);
    const images = execution.entry ? await this.collect(execution.entry, plan, job) : [];
    if (!execution.interrupted) watch.complete();
    return { images, seed: images[0]?.seed ?? seed, interrupted: execution.interrupted };
  }

  private async resolvePreprocessors(job: EngineJob): Promise<ResolvedPreprocessor[]> {
    const units = job.mode === 'upscale' ? [] : (job.controlNets ?? []);
    if (units.length === 0) return [];
    const info = units.some((unit) => !isNoneModule(unit.module)) ? await this.objectInfo() : {};
    return units.map((unit) => {
      const resolved = resolvePreprocessor(unit.module, info, unit);
      if (!resolved) throw new EngineError(`该后端不支持预处理器：${unit.module}`, false);
      return resolved;
    });
  }

  private objectInfo(): Promise<ComfyObjectInfo> {
    const now = performance.now();
    if (this.objectInfoCache && now - this.objectInfoCache.at < OBJECT_INFO_TTL_MS) return this.objectInfoCache.value;
    const value = this.client.getJson('/object_info').then(parseObjectInfo);
    const entry = { at: now, value };
    this.objectInfoCache = entry;
    // A failure is not remembered: the next call asks again.
    value.catch(() => {
      if (this.objectInfoCache === entry) this.objectInfoCache = null;
    });
    return value;
  }

  private async upload(bytes: Buffer): Promise<string> {
    const { ext, mime } = imageKind(bytes);
    // A fresh name per upload, so two jobs never overwrite each other's input.
    const file = await this.client.uploadImage(bytes, `huafang_${randomUUID()}.${ext}`, mime);
    return file.subfolder ? `${file.subfolder}/${file.name}` : file.name;
  }

  private view(ref: OutputImage): Promise<Buffer> {
    const query = new URLSearchParams({ filename: ref.filename, subfolder: ref.subfolder, type: ref.type });
    return this.client.getBytes(`/view?${query}`);
  }

  /** The finished images of history, in batch order, as PNGs carrying the A1111 `parameters` text. */
  private async collect(entry: HistoryEntry, plan: GraphPlan, job: EngineJob): Promise<EngineImage[]> {
    const found: { index: number; ref: OutputImage }[] = [];
    for (const [node, refs] of entry.outputs) {
      const base = plan.outputs.get(node);
      if (base === undefined) continue;
      for (const [offset, ref] of refs.entries()) found.push({ index: base + offset, ref });
    }
    found.sort((a, b) => a.index - b.index);
    const images: EngineImage[] = [];
    for (const { index, ref } of found) {
      const png = await toPng(await this.view(ref));
      const width = png.readUInt32BE(16);
      const height = png.readUInt32BE(20);
      const seed = plan.seeds[index] ?? plan.seeds[0] ?? 0;
      const infotext =
        job.mode === 'upscale'
          ? upscaleInfotext(job, seed, { width, height }, { factor: job.upscaleFactor ?? 2, upscaler: 'Lanczos' })
          : formatInfotext(job, seed, plan.sharedSampler && job.batchSize > 1 ? { 'Batch pos': index } : {});
      images.push({ png: addPngText(png, 'parameters', infotext), seed, width, height, infotext, interrupted: false });
    }
    return images;
  }

  private openSocket(clientId: string, watch: PromptWatch): Promise<WebSocket | null> {
    return new Promise((resolve) => {
      let opened = false;
      const socket = new WebSocket(this.client.socketUrl(clientId), {
        headers: this.client.headers(),
        followRedirects: false,
        handshakeTimeout: Math.min(this.requestTimeoutMs, HEALTH_TIMEOUT_MS),
      });
      socket.on('message', (data, binary) => watch.receive(toBuffer(data), binary));
      // A failed handshake or a broken socket always ends in 'close'; without a socket we poll /history.
      socket.on('error', () => {});
      socket.on('close', () => {
        if (opened) watch.lose();
        else resolve(null);
      });
      socket.once('open', () => {
        opened = true;
        resolve(socket);
      });
    });
  }

  private async queuePrompt(graph: ComfyGraph, clientId: string): Promise<string> {
    const reply = await this.client.request('POST', '/prompt', { json: { prompt: graph, client_id: clientId } });
    let body: unknown = null;
    try {
      body = this.client.parse(reply);
    } catch (error) {
      if (reply.status < 300) throw error;
    }
    if (reply.status < 300 && isRecord(body) && typeof body.prompt_id === 'string') return body.prompt_id;
    if (reply.status >= 400) throw new EngineError(refusalMessage(body), false);
    throw this.client.unavailable('提交任务后没有返回任务编号');
  }

  private async historyEntry(promptId: string): Promise<HistoryEntry | null> {
    return parseHistoryEntry(await this.client.getJson(`/history/${encodeURIComponent(promptId)}`), promptId);
  }

  private async queueState(): Promise<QueueState> {
    return parseQueue(await this.client.getJson('/queue'));
  }

  private async waitForHistory(promptId: string, until: number): Promise<HistoryEntry | null> {
    for (;;) {
      const entry = await this.historyEntry(promptId);
      if (entry || performance.now() >= until) return entry;
      await sleep(Math.min(this.pollIntervalMs, 100));
    }
  }

  /** Stops our prompt: interrupt it when it runs, take it off the queue while it waits. */
  private async cancel(promptId: string, watch: PromptWatch): Promise<CancelState> {
    if (watch.started) {
      await this.client.postJson('/interrupt', { prompt_id: promptId });
      return 'interrupting';
    }
    await this.client.postJson('/queue', { delete: [promptId] });
    const queue = await this.queueState();
    if (queue.running.includes(promptId)) {
      // It started between our look and the delete.
      await this.client.postJson('/interrupt', { prompt_id: promptId });
      return 'interrupting';
    }
    if (queue.pending.includes(promptId)) return 'interrupting';
    const entry = await this.historyEntry(promptId);
    if (!entry) return 'removed';
    watch.entry = entry;
    watch.finish(entry.terminal);
    return 'finished';
  }

  private async execute(
    graph: ComfyGraph,
    watch: PromptWatch,
    deadline: number,
    signal?: AbortSignal,
  ): Promise<Execution> {
    const clientId = randomUUID();
    // The socket first, so no event of our prompt can be missed.
    const socket = await this.openSocket(clientId, watch);
    if (!socket) watch.socketLost = true;
    const onAbort = () => watch.wake();
    signal?.addEventListener('abort', onAbort);
    try {
      const promptId = await this.queuePrompt(graph, clientId);
      watch.setPrompt(promptId);
      return await this.follow(promptId, watch, deadline, signal);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      socket?.removeAllListeners('close');
      socket?.terminate();
    }
  }

  private async follow(
    promptId: string,
    watch: PromptWatch,
    deadline: number,
    signal?: AbortSignal,
  ): Promise<Execution> {
    let cancelState: CancelState | null = null;
    let graceUntil = Number.POSITIVE_INFINITY;
    // With a live socket, history is still looked at now and then, in case the socket went quiet unnoticed.
    const checkEvery = Math.max(this.pollIntervalMs * 10, 5_000);
    let nextCheck = performance.now() + checkEvery;
    let failures = 0;
    let missing = 0;

    while (!watch.terminal) {
      if (watch.callbackError) throw watch.callbackError;
      const now = performance.now();
      if (now >= deadline) {
        await this.cancel(promptId, watch).catch(() => null);
        throw this.client.unavailable(`任务超时（${Math.round(this.jobTimeoutMs / 1000)} 秒）`);
      }
      if (signal?.aborted && !cancelState) {
        // Stopping is best effort: if the server cannot be reached, the user still gets the stop.
        cancelState = await this.cancel(promptId, watch).catch(() => 'removed' as const);
        if (cancelState === 'removed') return { interrupted: true, entry: null };
        graceUntil = performance.now() + ABORT_GRACE_MS;
        continue;
      }
      if (now >= graceUntil) break;

      const polling = watch.socketLost;
      if (polling || now >= nextCheck) {
        nextCheck = now + checkEvery;
        try {
          const entry = await this.historyEntry(promptId);
          if (entry) {
            watch.entry = entry;
            watch.finish(entry.terminal);
            continue;
          }
          if (polling) {
            const queue = await this.queueState();
            if (queue.running.includes(promptId)) watch.started = true;
            const known = queue.running.includes(promptId) || queue.pending.includes(promptId);
            missing = known ? 0 : missing + 1;
          }
          failures = 0;
        } catch (error) {
          if (polling && ++failures >= 3) throw this.client.unavailable('连接中断', error);
        }
        // Gone from the queue and never in history (twice, as the two are read one after the other): lost.
        if (missing >= 2) throw this.client.unavailable('连接中断，任务已丢失');
      }
      const wakeAt = Math.min(deadline, graceUntil, polling ? now + this.pollIntervalMs : nextCheck);
      await watch.wait(wakeAt - performance.now());
    }

    if (watch.callbackError) throw watch.callbackError;
    const terminal = watch.terminal;
    if (terminal?.kind === 'error') throw new EngineError(terminal.message, false);
    if (terminal?.kind === 'success') {
      const until = Math.min(deadline, performance.now() + HISTORY_WAIT_MS);
      const entry = watch.entry ?? (await this.waitForHistory(promptId, until));
      if (!entry) throw this.client.unavailable('任务已完成但取不到结果');
      return { interrupted: false, entry };
    }
    // Interrupted, or the server never confirmed our interrupt: whatever history holds (finished images).
    const until = performance.now() + (terminal ? 3_000 : 0);
    const entry = watch.entry ?? (await this.waitForHistory(promptId, until).catch(() => null));
    return { interrupted: true, entry };
  }
}
