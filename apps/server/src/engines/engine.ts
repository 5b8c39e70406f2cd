import type { BackendAssetKind, EngineKind, FormOption, GenerateMode, ModelFamily } from '@huafang/contracts';

export type { EngineKind };

/** ControlNet control mode as A1111 numbers it: 0 均衡, 1 更注重提示词, 2 更注重控制图. */
export type ControlMode = 0 | 1 | 2;

/** One ControlNet unit of a job (the shared controlNets parameter, with the reference image already loaded). */
export type EngineControlNet = {
  /** Preprocessor, e.g. canny, depth, lineart, invert, none. */
  module: string;
  /** Control model name, e.g. control_v11p_sd15_canny. */
  model: string;
  /** The reference image (PNG, JPEG or WebP bytes). */
  image: Buffer;
  /** 0..2, default 1. */
  weight?: number;
  /** Fraction of the steps where the unit starts and stops guiding, 0..1. */
  guidanceStart?: number;
  guidanceEnd?: number;
  /** Resolution the preprocessor works at (short side), default 512. */
  processorRes?: number;
  /** Module-specific thresholds (canny: low and high, 0..255); -1 or absent means the module default. */
  thresholdA?: number;
  thresholdB?: number;
  controlMode?: ControlMode;
};

/** One LoRA of a job: A1111 reads it as `<lora:name:weight>` in the prompt, ComfyUI as a LoraLoader node. */
export type EngineLora = {
  /** The LoRA's name on the backend (A1111 `/sdapi/v1/loras` name, ComfyUI `lora_name`). */
  name: string;
  weight: number;
  /** Short hash for PNG info's `Lora hashes`, when known. */
  hash?: string;
};

/** How the pictures of a job are sampled, under the same names from the checked parameters to the engine. */
export type SamplingSettings = {
  sampler: string;
  steps: number;
  cfgScale: number;
  width: number;
  height: number;
  /** -1 draws a random seed; the seed used is reported back on every image. */
  seed: number;
  batchSize: number;
};

/** A job as an engine runs it: the shared parameter names, prompt groups already turned into prompt text. */
export type EngineJob = SamplingSettings & {
  mode: GenerateMode;
  /** Positive prompt text, e.g. `masterpiece, (mountain:1.3), ink wash`. */
  prompt: string;
  negativePrompt: string;
  /** The checkpoint the job's modelId resolves to (the title the engine knows it by). */
  checkpoint: string;
  /** img2img and inpaint: how far the result may move away from the init image, 0..1. */
  denoisingStrength?: number;
  /** img2img, inpaint and upscale: the source image bytes. */
  initImage?: Buffer;
  /** inpaint: white where the picture is repainted. */
  mask?: Buffer;
  /** upscale: the scale factor (default 2). */
  upscaleFactor?: number;
  controlNets?: EngineControlNet[];
  loras?: EngineLora[];
};

export type EngineProgress = {
  /** Steps done so far over the whole batch (monotonic), out of totalSteps. */
  step: number;
  totalSteps: number;
  /** 0..100. */
  percent: number;
  etaSeconds: number;
  /** Which image of the batch is being painted, 0-based. */
  imageIndex: number;
  /** A small live preview of the current canvas, every few steps. */
  preview?: Buffer;
  previewMime?: 'image/png' | 'image/webp' | 'image/jpeg';
};

export type EngineImage = {
  /** PNG bytes, carrying the AUTOMATIC1111-style `parameters` text. */
  png: Buffer;
  seed: number;
  width: number;
  height: number;
  /** The `parameters` text written into the PNG. */
  infotext: string;
  /** True when the job was interrupted while this image was being painted (it holds the canvas of that moment). */
  interrupted: boolean;
};

export type EngineResult = {
  images: EngineImage[];
  /** The first image's seed (the one a -1 seed drew). */
  seed: number;
  interrupted: boolean;
};

export type RunOptions = {
  signal?: AbortSignal;
  onProgress?: (progress: EngineProgress) => void;
};

export type PreprocessOptions = {
  processorRes?: number;
  thresholdA?: number;
  thresholdB?: number;
};

export type EngineModel = {
  /** What a job's checkpoint names (A1111 `title`, ComfyUI `ckpt_name`). */
  title: string;
  /** A human name to show. */
  name: string;
};

/** A checkpoint, LoRA or VAE a backend has, as 同步 stores it. */
export type EngineAsset = {
  kind: BackendAssetKind;
  /** What a job names it by (A1111 checkpoint `title` / LoRA `name`; ComfyUI file name). */
  title: string;
  name: string;
  hash: string | null;
  /** The base-model family when the engine knows it (the built-in catalog; A1111 LoRA metadata). */
  family?: ModelFamily;
};

export type EngineHealth = {
  ok: boolean;
  /** Chinese, shown to admins. */
  message: string;
  busy: boolean;
};

/**
 * The one interface every inference engine implements: the built-in demo engine (内置演示引擎),
 * AUTOMATIC1111/Forge over HTTP and ComfyUI. The queue and the backends registry only ever see this.
 */
export interface InferenceEngine {
  readonly kind: EngineKind;
  /** Chinese name shown in the UI. */
  readonly label: string;
  listModels(): Promise<EngineModel[]>;
  listSamplers(): Promise<string[]>;
  /** ControlNet preprocessors as form options; fromConfig lists the tuning fields each one shows. */
  listControlNetModules(): Promise<FormOption[]>;
  listControlNetModels(): Promise<string[]>;
  /** Every checkpoint, LoRA and VAE the backend has, for 同步模型 (engines that cannot list them lack it). */
  listAssets?(): Promise<EngineAsset[]>;
  /** Runs a job to its images. An aborted signal stops at the next step; what was painted so far comes back. */
  run(job: EngineJob, options?: RunOptions): Promise<EngineResult>;
  /** The preprocessed map of a ControlNet module for an image (PNG bytes), for previews. */
  preprocess(controlnetModule: string, image: Buffer, options?: PreprocessOptions): Promise<Buffer>;
  health(): Promise<EngineHealth>;
  /** Frees what the engine holds in this process (the built-in engine's worker thread). */
  close?(): Promise<void>;
}

/** Where a registered backend is and how to sign in to it, as an admin entered it. */
export type EngineAddress = { name: string; baseUrl: string; username: string | null; secret: string | null };

/**
 * What the operator sets for every remote backend. `timeoutMs` (BACKEND_TIMEOUT_SECONDS): how long a backend may
 * stay silent on a job before it counts as failed (retryable: the job moves to another backend). Absent: each
 * engine's default (10 minutes).
 */
export type EngineOptions = { timeoutMs?: number };

/** How a kind makes its engine: what `engines/<kind>/index.ts` exports as `create` (see engine-registry.ts). */
export type CreateEngine = (address: EngineAddress, options: EngineOptions) => InferenceEngine;

/** The prompt text an engine receives from a prompt group: each item's promptText (else its label), in order, once. */
export function buildPromptText(items: readonly { promptText?: string; groupName?: string }[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const item of items) {
    const text = (item.promptText?.trim() || item.groupName?.trim() || '').replace(/[，、]\s*$/u, '');
    if (!text || seen.has(text)) continue;
    seen.add(text);
    parts.push(text);
  }
  return parts.join(', ');
}

/** The prompt as A1111 reads LoRAs: `<lora:name:weight>` appended for each LoRA the text does not name yet. */
export function withLoraTags(prompt: string, loras: readonly EngineLora[]): string {
  const tags = loras
    .filter((lora) => !prompt.includes(`<lora:${lora.name}:`))
    .map((lora) => `<lora:${lora.name}:${infoNumber(lora.weight)}>`);
  return [prompt, ...tags].filter(Boolean).join(', ');
}

/** A1111's display of a number in infotext: integers plainly, others without trailing zeros. */
function infoNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(4)));
}

/**
 * The AUTOMATIC1111 `parameters` text of one image: prompt, `Negative prompt:` line, then `Key: value` pairs.
 * Other tools (A1111's PNG Info, ComfyUI loaders, Civitai) read it back.
 */
export function formatInfotext(job: EngineJob, seed: number, extra: Record<string, string | number> = {}): string {
  const pairs: [string, string][] = [
    ['Steps', infoNumber(job.steps)],
    ['Sampler', job.sampler],
    ['CFG scale', infoNumber(job.cfgScale)],
    ['Seed', String(seed)],
    ['Size', `${job.width}x${job.height}`],
    ['Model', job.checkpoint],
  ];
  if ((job.mode === 'img2img' || job.mode === 'inpaint') && job.denoisingStrength !== undefined) {
    pairs.push(['Denoising strength', infoNumber(job.denoisingStrength)]);
  }
  if (job.batchSize > 1) pairs.push(['Batch size', String(job.batchSize)]);
  (job.controlNets ?? []).forEach((unit, index) => {
    const fields = [
      `Module: ${unit.module}`,
      `Model: ${unit.model}`,
      `Weight: ${infoNumber(unit.weight ?? 1)}`,
      `Guidance Start: ${infoNumber(unit.guidanceStart ?? 0)}`,
      `Guidance End: ${infoNumber(unit.guidanceEnd ?? 1)}`,
    ];
    pairs.push([`ControlNet ${index}`, `"${fields.join(', ')}"`]);
  });
  const hashed = (job.loras ?? []).filter((lora) => lora.hash);
  if (hashed.length > 0)
    pairs.push(['Lora hashes', `"${hashed.map((lora) => `${lora.name}: ${lora.hash}`).join(', ')}"`]);
  for (const [key, value] of Object.entries(extra)) pairs.push([key, String(value)]);
  const lines = [withLoraTags(job.prompt, job.loras ?? [])];
  if (job.negativePrompt.trim()) lines.push(`Negative prompt: ${job.negativePrompt}`);
  lines.push(pairs.map(([key, value]) => `${key}: ${value}`).join(', '));
  return lines.join('\n');
}

/** The infotext of an upscaled picture: the job's at the new size, with A1111's keys for the extras upscale. */
export function upscaleInfotext(
  job: EngineJob,
  seed: number,
  size: { width: number; height: number },
  upscale: { factor: number; upscaler: string },
): string {
  return formatInfotext({ ...job, ...size, batchSize: 1 }, seed, {
    'Postprocess upscale by': upscale.factor,
    'Postprocess upscaler': upscale.upscaler,
  });
}

/**
 * A failure of an engine, with a Chinese message for the user. `retryable` marks a failure of the backend
 * itself (unreachable, 5xx, timeout, lost socket): the queue then tries the job on another backend. A
 * refusal of the job (unknown model, invalid graph, 4xx) is not retryable: another backend would refuse it too.
 */
export class EngineError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EngineError';
  }
}
