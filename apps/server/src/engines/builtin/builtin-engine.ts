import { randomInt } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ENGINE_KINDS, type EngineKind, type FormOption } from '@huafang/contracts';
import sharp from 'sharp';
import {
  type EngineAsset,
  type EngineHealth,
  type EngineImage,
  type EngineJob,
  type EngineModel,
  type EngineResult,
  formatInfotext,
  type InferenceEngine,
  type PreprocessOptions,
  type RunOptions,
  upscaleInfotext,
} from '../engine.js';
import { namedSamplerFacts, nameHash } from '../infotext.js';
import { addPngText } from '../png-text.js';
import {
  BUILTIN_CHECKPOINTS,
  BUILTIN_CONTROLNET_MODELS,
  BUILTIN_CONTROLNET_MODULES,
  BUILTIN_LORAS,
  BUILTIN_SAMPLERS,
} from './catalog.js';
import {
  type BuiltinPreprocessor,
  preprocessToMap,
  preprocessToPng,
  resizeMap,
  resolvePreprocessor,
  steerTarget,
  unitStrength,
} from './controlnet.js';
import { buildPalette, paintScene } from './painter.js';
import { hashString, mix32, Rng } from './prng.js';
import { blurData, createRaster, fromRgbBytes, type Raster, toRgbBytes } from './raster.js';
import { describeScene } from './scene.js';
import { applyLora, applyStyle } from './styles.js';

export const BUILTIN_ENGINE_KIND = 'builtin' satisfies EngineKind;
/** The name the UI shows: it is a demo engine, never presented as AI. */
export const BUILTIN_ENGINE_LABEL = ENGINE_KINDS[BUILTIN_ENGINE_KIND].label;

export type BuiltinEngineOptions = {
  /** A preview every this many steps (default 3). */
  previewEvery?: number;
  /** Longest side of a preview in pixels (default 256). */
  previewSize?: number;
};

const MAX_SEED = 4294967295;
/** How loud the noise is on the 0..1 pixel scale at sigma 1. */
const NOISE_SCALE = 0.45;

const clampInt = (value: number, min: number, max: number, fallback: number) =>
  Number.isFinite(value) ? Math.max(min, Math.min(max, Math.round(value))) : fallback;

/** Noise levels from 1 down to 0, steps + 1 entries: Karras (rho 7) for *Karras samplers, else a power curve. */
export function noiseSchedule(sampler: string, steps: number): number[] {
  const sigmas: number[] = [];
  if (/karras/i.test(sampler)) {
    const rho = 7;
    const min = 0.02 ** (1 / rho);
    const max = 1;
    for (let i = 0; i < steps; i++) sigmas.push((max + (i / Math.max(1, steps - 1)) * (min - max)) ** rho);
  } else {
    const power = /ddim|unipc/i.test(sampler) ? 1.3 : 1.7;
    for (let i = 0; i < steps; i++) sigmas.push(Math.max(0.02, (1 - i / steps) ** power));
  }
  sigmas.push(0);
  return sigmas;
}

/** Seeded Gaussian noise with a coarse, latent-like component (colour blobs at 1/8 scale) and fine grain. */
function latentNoise(seed: number, width: number, height: number): Float32Array {
  const rng = new Rng(mix32(seed, hashString('noise')));
  const n = width * height;
  const out = new Float32Array(n * 3);
  const cw = Math.ceil(width / 8) + 1;
  const ch = Math.ceil(height / 8) + 1;
  const coarse = new Float32Array(cw * ch * 3);
  for (let i = 0; i < coarse.length; i++) coarse[i] = rng.gauss();
  for (let y = 0; y < height; y++) {
    const fy = y / 8;
    const y0 = Math.floor(fy);
    const ty = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = x / 8;
      const x0 = Math.floor(fx);
      const tx = fx - x0;
      const i = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) {
        const a = coarse[(y0 * cw + x0) * 3 + c]!;
        const b = coarse[(y0 * cw + x0 + 1) * 3 + c]!;
        const d = coarse[((y0 + 1) * cw + x0) * 3 + c]!;
        const e = coarse[((y0 + 1) * cw + x0 + 1) * 3 + c]!;
        const low = a + (b - a) * tx + (d + (e - d) * tx - (a + (b - a) * tx)) * ty;
        out[i + c] = 0.8 * low + 0.6 * rng.gauss();
      }
    }
  }
  return out;
}

async function decodeRaster(image: Buffer, width: number, height: number): Promise<Raster> {
  const { data, info } = await sharp(image)
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return fromRgbBytes(data, info.width, info.height, info.channels);
}

async function decodeMask(image: Buffer, width: number, height: number): Promise<Float32Array> {
  const { data, info } = await sharp(image)
    .flatten({ background: '#000000' })
    .greyscale()
    .resize(width, height, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const out = new Float32Array(width * height);
  for (let p = 0; p < out.length; p++) out[p] = data[p * info.channels]! / 255;
  return out;
}

function encodePng(raster: Raster): Promise<Buffer> {
  return sharp(toRgbBytes(raster), { raw: { width: raster.width, height: raster.height, channels: 3 } })
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .toBuffer();
}

/**
 * The raster averaged over blocks of `factor`² pixels: a preview is a quarter of the canvas or less, and converting
 * and resizing the whole canvas for each one cost a sixth of the painting (bench/generation.bench.ts).
 */
function shrunk(raster: Raster, factor: number): Raster {
  if (factor <= 1) return raster;
  const width = Math.floor(raster.width / factor);
  const height = Math.floor(raster.height / factor);
  const out = createRaster(width, height);
  const { data } = raster;
  const scale = 1 / (factor * factor);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let dy = 0; dy < factor; dy++) {
        let i = ((y * factor + dy) * raster.width + x * factor) * 3;
        for (let dx = 0; dx < factor; dx++, i += 3) {
          r += data[i]!;
          g += data[i + 1]!;
          b += data[i + 2]!;
        }
      }
      const o = (y * width + x) * 3;
      out.data[o] = r * scale;
      out.data[o + 1] = g * scale;
      out.data[o + 2] = b * scale;
    }
  }
  return out;
}

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

type Control = { kind: BuiltinPreprocessor; map: Float32Array; strength: number; start: number; end: number };

/**
 * The built-in demo engine (内置演示引擎): paints deterministic pictures from the prompt words, the seed and the
 * parameters on the CPU, with a diffusion-like loop (noise → picture) so progress, previews and interrupt are real.
 */
export class BuiltinEngine implements InferenceEngine {
  readonly kind = BUILTIN_ENGINE_KIND;
  readonly label = BUILTIN_ENGINE_LABEL;
  private running = 0;
  private readonly previewEvery: number;
  private readonly previewSize: number;

  constructor(options: BuiltinEngineOptions = {}) {
    this.previewEvery = Math.max(1, options.previewEvery ?? 3);
    this.previewSize = Math.max(32, options.previewSize ?? 256);
  }

  async listModels(): Promise<EngineModel[]> {
    return BUILTIN_CHECKPOINTS.map((model) => ({ ...model }));
  }

  async listSamplers(): Promise<string[]> {
    return [...BUILTIN_SAMPLERS];
  }

  async listAssets(): Promise<EngineAsset[]> {
    return [
      ...BUILTIN_CHECKPOINTS.map((model) => ({ kind: 'checkpoint' as const, ...model, hash: null })),
      ...BUILTIN_LORAS.map((lora) => ({
        kind: 'lora' as const,
        title: lora.title,
        name: lora.name,
        hash: null,
        family: '其他' as const,
      })),
    ];
  }

  async listControlNetModules(): Promise<FormOption[]> {
    return BUILTIN_CONTROLNET_MODULES.map((module) => ({ ...module }));
  }

  async listControlNetModels(): Promise<string[]> {
    return [...BUILTIN_CONTROLNET_MODELS];
  }

  async health(): Promise<EngineHealth> {
    return { ok: true, busy: this.running > 0, message: `${BUILTIN_ENGINE_LABEL}：CPU 绘制的演示图像，不是 AI 模型` };
  }

  preprocess(controlnetModule: string, image: Buffer, options: PreprocessOptions = {}): Promise<Buffer> {
    return preprocessToPng(controlnetModule, image, options);
  }

  async run(input: EngineJob, options: RunOptions = {}): Promise<EngineResult> {
    this.running++;
    try {
      const seed = input.seed < 0 ? randomInt(0, MAX_SEED) : Math.floor(input.seed) % (MAX_SEED + 1);
      if (input.mode === 'upscale') return await this.upscale(input, seed, options);
      return await this.generate(input, seed, options);
    } finally {
      this.running--;
    }
  }

  private async upscale(job: EngineJob, seed: number, options: RunOptions): Promise<EngineResult> {
    if (!job.initImage) throw new Error('高清放大需要一张原图');
    const factor = Math.max(1, Math.min(4, job.upscaleFactor ?? 2));
    const meta = await sharp(job.initImage).metadata();
    const width = Math.round((meta.width ?? 0) * factor);
    const height = Math.round((meta.height ?? 0) * factor);
    if (options.signal?.aborted) return { images: [], seed, interrupted: true };
    const resized = await sharp(job.initImage)
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .resize(width, height, { kernel: 'lanczos3' })
      .sharpen({ sigma: 0.8 })
      .png({ compressionLevel: 6, adaptiveFiltering: false })
      .toBuffer();
    const infotext = upscaleInfotext(
      job,
      seed,
      { width, height },
      { factor, upscaler: 'Lanczos' },
      namedSamplerFacts(job, nameHash(job.checkpoint)),
    );
    options.onProgress?.({ step: 1, totalSteps: 1, percent: 100, etaSeconds: 0, imageIndex: 0 });
    const image: EngineImage = {
      png: addPngText(resized, 'parameters', infotext),
      seed,
      width,
      height,
      infotext,
      interrupted: false,
    };
    return { images: [image], seed, interrupted: false };
  }

  private async generate(input: EngineJob, seed: number, options: RunOptions): Promise<EngineResult> {
    const width = clampInt(input.width, 64, 2048, 512);
    const height = clampInt(input.height, 64, 2048, 512);
    const steps = clampInt(input.steps, 1, 150, 20);
    const batch = clampInt(input.batchSize, 1, 16, 1);
    const job: EngineJob = { ...input, width, height, steps, batchSize: batch };
    const { signal, onProgress } = options;
    const n = width * height;
    const u = Math.min(width, height);
    const scene = describeScene(job.prompt, job.negativePrompt, job.checkpoint);

    const imageToImage = (job.mode === 'img2img' || job.mode === 'inpaint') && job.initImage !== undefined;
    const init = imageToImage ? await decodeRaster(job.initImage!, width, height) : null;
    const mask = job.mode === 'inpaint' && job.mask && init ? await decodeMask(job.mask, width, height) : null;
    const strength = imageToImage ? Math.max(0, Math.min(1, job.denoisingStrength ?? 0.75)) : 1;

    const controls: Control[] = [];
    for (const unit of job.controlNets ?? []) {
      const kind = resolvePreprocessor(unit.module);
      if (!kind) throw new Error(`内置演示引擎不支持预处理器：${unit.module}`);
      const map = await preprocessToMap(unit.module, unit.image, unit);
      controls.push({
        kind,
        map: await resizeMap(map, width, height),
        strength: unitStrength(unit),
        start: Math.max(0, Math.min(1, unit.guidanceStart ?? 0)),
        end: Math.max(0, Math.min(1, unit.guidanceEnd ?? 1)),
      });
    }

    const sigmas = noiseSchedule(job.sampler, steps);
    const runSteps = imageToImage ? Math.floor(steps * strength) : steps;
    const startIndex = steps - runSteps;
    const ancestral = /( a$|sde)/i.test(job.sampler);
    const stepUnits = Math.max(1, runSteps);
    const totalSteps = stepUnits * batch;
    const started = performance.now();
    let done = 0;
    const images: EngineImage[] = [];
    let interrupted = false;

    // A preview is encoded (in libvips' threads) while the next step paints, instead of holding it up; its report
    // still goes out before that step's, so reports keep their order.
    let previewing: Promise<void> | undefined;
    const report = async (canvas: Raster, imageIndex: number, withPreview: boolean) => {
      if (!onProgress) return;
      const elapsed = (performance.now() - started) / 1000;
      const etaSeconds = done > 0 ? Math.round((elapsed / done) * (totalSteps - done) * 10) / 10 : 0;
      const progress = {
        step: done,
        totalSteps,
        percent: Math.round((done / totalSteps) * 1000) / 10,
        etaSeconds,
        imageIndex,
      };
      // This step's pixels, taken before the canvas moves on.
      const small = withPreview ? shrunk(canvas, Math.floor(Math.max(width, height) / this.previewSize)) : null;
      await previewing;
      if (!small) return onProgress(progress);
      previewing = sharp(toRgbBytes(small), { raw: { width: small.width, height: small.height, channels: 3 } })
        .resize(this.previewSize, this.previewSize, { fit: 'inside' })
        // A passing glimpse, replaced within a second: the fastest encoding (effort 0) is good enough.
        .webp({ quality: 60, effort: 0 })
        .toBuffer()
        .then(
          (preview) => onProgress({ ...progress, preview, previewMime: 'image/webp' }),
          // A glimpse that could not be made is skipped, not the step's report.
          () => onProgress(progress),
        );
    };

    for (let b = 0; b < batch && !interrupted; b++) {
      if (signal?.aborted) {
        interrupted = true;
        break;
      }
      const imageSeed = (seed + b) % (MAX_SEED + 1);
      const palette = buildPalette(scene, imageSeed);
      const target = applyStyle(
        paintScene(scene, palette, imageSeed, width, height),
        scene.style,
        scene.styleWeight,
        imageSeed,
        {
          monochrome: scene.colors.monochrome ?? 0,
          cfgScale: job.cfgScale,
        },
      );
      for (const lora of job.loras ?? []) applyLora(target, lora.name, lora.weight);
      const steered = controls.map((control) =>
        steerTarget(target, control.map, control.kind, control.strength, palette.accent),
      );
      const noise = latentNoise(imageSeed, width, height);
      const stepRng = new Rng(mix32(imageSeed, hashString('ancestral')));
      const sigma0 = sigmas[startIndex]!;
      const canvas: Raster = { width, height, data: new Float32Array(n * 3) };
      const x = canvas.data;
      for (let i = 0; i < x.length; i++) x[i] = (init ? init.data[i]! : 0.5) + sigma0 * NOISE_SCALE * noise[i]!;
      if (runSteps === 0 && init) x.set(init.data);
      const denoised = new Float32Array(n * 3);
      const scratch = new Float32Array(n * 3);

      for (let s = startIndex; s < steps; s++) {
        if (signal?.aborted) {
          interrupted = true;
          break;
        }
        const sigma = sigmas[s]!;
        const next = sigmas[s + 1]!;
        const fraction = s / steps;
        // What the "model" predicts at this noise level: the target, steered by ControlNet, kept near the init image.
        denoised.set(target.data);
        controls.forEach((control, k) => {
          const pull = fraction < control.start ? 0 : fraction <= control.end ? 1 : 0.7;
          if (pull === 0) return;
          const steer = steered[k]!.data;
          for (let i = 0; i < denoised.length; i++) denoised[i] = denoised[i]! + (steer[i]! - target.data[i]!) * pull;
        });
        if (init)
          for (let i = 0; i < denoised.length; i++)
            denoised[i] = init.data[i]! + (denoised[i]! - init.data[i]!) * strength;
        const radius = sigma ** 1.3 * (u / 10);
        const estimate = radius >= 1 ? blurData(denoised, width, height, 3, radius, scratch) : denoised;
        let up = 0;
        let down = next;
        if (ancestral && next > 0) {
          up = Math.min(next, Math.sqrt((next * next * (sigma * sigma - next * next)) / (sigma * sigma)));
          down = Math.sqrt(next * next - up * up);
        }
        const keep = down / sigma;
        const offset = (stepRng.int(0, n - 1) * 3) | 0;
        const fresh = up * NOISE_SCALE;
        for (let i = 0; i < x.length; i++) {
          const d = estimate[i]!;
          x[i] = d + (x[i]! - d) * keep + (fresh > 0 ? fresh * noise[(i + offset) % x.length]! : 0);
        }
        if (mask && init) {
          for (let p = 0; p < n; p++) {
            const m = mask[p]!;
            for (let c = 0; c < 3; c++)
              x[p * 3 + c] = init.data[p * 3 + c]! + (x[p * 3 + c]! - init.data[p * 3 + c]!) * m;
          }
        }
        done++;
        const local = s - startIndex + 1;
        await report(canvas, b, local % this.previewEvery === 0 && local < runSteps);
        await nextTick();
      }
      if (runSteps === 0) {
        done++;
        await report(canvas, b, false);
      }
      // The image's last preview is reported before the image is done.
      await previewing;
      const infotext = formatInfotext(job, imageSeed, namedSamplerFacts(job, nameHash(job.checkpoint)));
      const png = addPngText(await encodePng(canvas), 'parameters', infotext);
      images.push({ png, seed: imageSeed, width, height, infotext, interrupted });
    }
    return { images, seed: images[0]?.seed ?? seed, interrupted };
  }
}
