import { randomBytes, randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { readPngText } from '../../src/engines/png-text.js';
import { playTransportFailure, startProviderServer } from './provider-double.js';

/**
 * A stand-in for an AUTOMATIC1111 stable-diffusion-webui (v1.10, `--api`) with the sd-webui-controlnet extension,
 * or for Forge with its built-in ControlNet: a real HTTP server on 127.0.0.1 speaking the routes and JSON shapes
 * of modules/api/api.py, modules/progress.py and the extension's scripts/api.py (see /work/shared/engines.md).
 *
 * Like the real server it runs one job at a time behind a FIFO lock, keeps the global `shared.state` that
 * `/sdapi/v1/progress` reports, tracks tasks by `force_task_id` for `/internal/progress`, stops at the next
 * sampling step on `/sdapi/v1/interrupt` and still answers with the images of that moment, and writes the
 * `parameters` text into every PNG. Pictures are small gradients whose colour follows the seed.
 */

export type A1111Flavour = 'a1111' | 'forge';

export type A1111DoubleOptions = {
  /** `--api-auth user:password`: HTTP Basic on /sdapi/v1/* only. */
  auth?: { username: string; password: string };
  flavour?: A1111Flavour;
  /** Time of one sampling step (default 5 ms). */
  stepDelayMs?: number;
  /** Checkpoint titles (`name.safetensors [hash]`); the first one is loaded at start. */
  models?: string[];
  /** opts.show_progress_every_n_steps: a new live preview every this many steps (default 2). */
  previewEvery?: number;
  /** opts.live_previews_image_format (default png). */
  livePreviewFormat?: 'png' | 'jpeg' | 'webp';
  /** The LoRA files `/sdapi/v1/loras` lists (default none). */
  loras?: A1111Lora[];
  /** VAE files `/sdapi/v1/sd-vae` (A1111) or `/sdapi/v1/sd-modules` (Forge) lists (default none). */
  vaes?: string[];
};

/** A LoRA file as the Lora extension lists it; `metadata` is the file's training metadata (often `{}`). */
export type A1111Lora = { name: string; alias?: string; metadata?: Record<string, string> };

export type RecordedRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The parsed JSON body (undefined without one). */
  body: any;
  authorization?: string;
};

/** What the next matching request does instead of its work: a 500, no answer at all, or a dropped connection. */
export type A1111Failure = 'error' | 'hang' | 'reset';

export type A1111Job = {
  taskId: string;
  endpoint: 'txt2img' | 'img2img';
  /** The checkpoint title the job ran with (after override_settings). */
  model: string;
  seeds: number[];
  interrupted: boolean;
  /** Generated images answered (detected maps not counted). */
  imageCount: number;
};

export type A1111Double = {
  url: string;
  flavour: A1111Flavour;
  /** Every request in arrival order. */
  requests: RecordedRequest[];
  requestsTo(path: string, method?: string): RecordedRequest[];
  /** Finished generation jobs in order. */
  jobs: A1111Job[];
  readonly interruptCount: number;
  /** The checkpoint loaded now (opts.sd_model_checkpoint). */
  readonly loadedModel: string;
  /** false: /internal/progress answers 404, as servers without the route do. */
  internalProgress: boolean;
  /** opts.enable_pnginfo: false leaves the `parameters` text out of the PNGs. */
  pngInfo: boolean;
  /** The next request to `path` (default: the next txt2img, img2img or extra-single-image) fails this way. */
  failNext(kind: A1111Failure, path?: string): void;
  close(): Promise<void>;
};

const DEFAULT_MODELS = [
  'v1-5-pruned-emaonly.safetensors [6ce0161689]',
  'anything-v5.safetensors [7f96a1a9ca]',
  'majicmixRealistic_v7.safetensors [7c819b6d13]',
];

const SAMPLERS: { name: string; aliases: string[] }[] = [
  { name: 'DPM++ 2M', aliases: ['k_dpmpp_2m'] },
  { name: 'DPM++ SDE', aliases: ['k_dpmpp_sde'] },
  { name: 'DPM++ 2M SDE', aliases: ['k_dpmpp_2m_sde'] },
  { name: 'Euler a', aliases: ['k_euler_a', 'k_euler_ancestral'] },
  { name: 'Euler', aliases: ['k_euler'] },
  { name: 'LMS', aliases: ['k_lms'] },
  { name: 'Heun', aliases: ['k_heun'] },
  { name: 'DDIM', aliases: ['ddim'] },
  { name: 'UniPC', aliases: ['unipc'] },
];

const SCHEDULERS = [
  'Automatic',
  'Uniform',
  'Karras',
  'Exponential',
  'Polyexponential',
  'SGM Uniform',
  'KL Optimal',
  'Align Your Steps',
  'Simple',
  'Normal',
  'DDIM',
  'Beta',
];

const UPSCALERS = ['None', 'Lanczos', 'Nearest', 'ESRGAN_4x', 'R-ESRGAN 4x+', 'R-ESRGAN 4x+ Anime6B', 'SwinIR 4x'];

const CONTROLNET_MODELS = [
  'control_v11p_sd15_canny [d14c016b]',
  'control_v11f1p_sd15_depth [cfd03158]',
  'control_v11p_sd15_lineart [43d4be0d]',
];

type Slider = { name: string; value: number; min: number; max: number; step: number };
const RESOLUTION: Slider = { name: 'Resolution', value: 512, min: 128, max: 2048, step: 8 };

/** The extension's module_detail, as Preprocessor.api_json lists the visible sliders. */
const CONTROLNET_MODULES: Record<string, { model_free: boolean; sliders: Slider[] }> = {
  none: { model_free: false, sliders: [] },
  canny: {
    model_free: false,
    sliders: [
      RESOLUTION,
      { name: 'Low Threshold', value: 100, min: 1, max: 255, step: 1 },
      { name: 'High Threshold', value: 200, min: 1, max: 255, step: 1 },
    ],
  },
  depth_midas: { model_free: false, sliders: [RESOLUTION] },
  lineart_realistic: { model_free: false, sliders: [RESOLUTION] },
  invert: { model_free: false, sliders: [RESOLUTION] },
  tile_resample: {
    model_free: false,
    sliders: [{ name: 'Down Sampling Rate', value: 1, min: 1, max: 8, step: 0.01 }],
  },
  reference_only: {
    model_free: true,
    sliders: [{ name: 'Style Fidelity (only for "Balanced" mode)', value: 0.5, min: 0, max: 1, step: 0.01 }],
  },
};

const modelName = (title: string) => title.replace(/\s*\[[0-9a-f]+\]$/i, '').replace(/\.(safetensors|ckpt)$/i, '');
const modelHash = (title: string) => title.match(/\[([0-9a-f]+)\]$/i)?.[1] ?? '';

/** FastAPI's query booleans. */
const queryFlag = (value: string | undefined, fallback: boolean) =>
  value === undefined ? fallback : ['true', '1', 'yes', 'on'].includes(value.toLowerCase());

const sleep = (ms: number) =>
  new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));

/** An HTTPException through the webui's exception handler: `{error, detail, body, errors}`. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
    readonly extra: { errorName?: string; errors?: string; headers?: Record<string, string> } = {},
  ) {
    super(typeof detail === 'string' ? detail : 'error');
  }
}

/** PNG text chunks as PIL's PngInfo.add_text writes them: tEXt for Latin-1, else uncompressed iTXt. */
function withPngText(png: Buffer, entries: [string, string][]): Buffer {
  const chunks = entries.map(([keyword, text]) => {
    const latin1 = [...text].every((ch) => ch.charCodeAt(0) <= 0xff);
    const data = latin1
      ? Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0]), Buffer.from(text, 'latin1')])
      : Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0, 0, 0, 0, 0]), Buffer.from(text, 'utf8')]);
    const type = Buffer.from(latin1 ? 'tEXt' : 'iTXt', 'latin1');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(data, crc32(type)) >>> 0);
    return Buffer.concat([length, type, data, crc]);
  });
  const ihdrEnd = 8 + 12 + png.readUInt32BE(8);
  return Buffer.concat([png.subarray(0, ihdrEnd), ...chunks, png.subarray(ihdrEnd)]);
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
}

type Source = { init?: Buffer; mask?: Buffer; denoise: number };

/** The "latent" of one image at a point of sampling: grey noise at 0, the seed's gradient at 1. */
function paint(seed: number, width: number, height: number, fraction: number, source: Source): Buffer {
  const out = Buffer.alloc(width * height * 3);
  const [r, g, b] = hslToRgb((seed * 47) % 360, 0.7, 0.5);
  for (let y = 0; y < height; y++) {
    const shade = 0.7 + (0.6 * y) / Math.max(1, height - 1);
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 3;
      const colour = [r * shade, g * shade, b * shade];
      for (let c = 0; c < 3; c++) {
        let value = 128 + (Math.min(255, colour[c]!) - 128) * fraction;
        if (source.init) {
          const original = source.init[p + c]!;
          const mixed = original + (value - original) * source.denoise;
          const m = source.mask ? source.mask[y * width + x]! / 255 : 1;
          value = original + (mixed - original) * m;
        }
        out[p + c] = Math.round(value);
      }
    }
  }
  return out;
}

const encodePng = (raw: Buffer, width: number, height: number) =>
  sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();

function decodeBase64Image(encoded: string): Buffer {
  const comma = encoded.startsWith('data:image/') ? encoded.indexOf(',') : -1;
  return Buffer.from(comma >= 0 ? encoded.slice(comma + 1) : encoded, 'base64');
}

async function readRaw(encoded: string, width: number, height: number, grey: boolean): Promise<Buffer> {
  let image = sharp(decodeBase64Image(encoded)).resize(width, height, { fit: 'fill' }).removeAlpha();
  image = grey ? image.greyscale() : image.toColourspace('srgb');
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  if (grey && info.channels !== 1) {
    const out = Buffer.alloc(width * height);
    for (let i = 0; i < out.length; i++) out[i] = data[i * info.channels]!;
    return out;
  }
  return data;
}

/** A preprocessor's map: edges for line modules, inverted or blurred grey for the others. */
async function detectMap(
  encoded: string,
  module: string,
  size: { resolution: number } | { width: number; height: number },
): Promise<Buffer> {
  let image = sharp(decodeBase64Image(encoded)).removeAlpha().greyscale();
  // The short side at the processor resolution for a preview; the generation's size for a detected map.
  image =
    'resolution' in size
      ? image.resize(size.resolution, size.resolution, { fit: 'outside' })
      : image.resize(size.width, size.height, { fit: 'cover' });
  if (module === 'invert') image = image.negate();
  else if (module.startsWith('depth')) image = image.blur(3);
  else image = image.convolve({ width: 3, height: 3, kernel: [-1, -1, -1, -1, 8, -1, -1, -1, -1] });
  return image.png().toBuffer();
}

/** `/sdapi/v1/loras` as modules/api of the built-in Lora extension answers it. */
function loraList(loras: readonly A1111Lora[]) {
  return loras.map((lora) => ({
    name: lora.name,
    alias: lora.alias ?? lora.name,
    path: `/models/Lora/${lora.name}.safetensors`,
    metadata: lora.metadata ?? {},
  }));
}

/** `/sdapi/v1/sd-vae` (and Forge's `/sd-modules`): `{model_name, filename}` per file. */
function vaeList(files: readonly string[], folder: string) {
  return files.map((file) => ({ model_name: file, filename: `/models/${folder}/${file}` }));
}

export async function startA1111Double(options: A1111DoubleOptions = {}): Promise<A1111Double> {
  const flavour = options.flavour ?? 'a1111';
  const models = options.models?.length ? [...options.models] : [...DEFAULT_MODELS];
  const stepDelayMs = options.stepDelayMs ?? 5;
  const previewEvery = Math.max(1, options.previewEvery ?? 2);
  const previewFormat = options.livePreviewFormat ?? 'png';
  const moduleNames =
    flavour === 'forge'
      ? ['None', ...Object.keys(CONTROLNET_MODULES).filter((name) => name !== 'none')]
      : Object.keys(CONTROLNET_MODULES);

  const requests: RecordedRequest[] = [];
  const jobs: A1111Job[] = [];
  const failures = new Map<string, A1111Failure>();
  let interruptCount = 0;
  let loadedModel = models[0]!;
  let closed = false;

  // shared.state of the webui.
  const state = {
    skipped: false,
    interrupted: false,
    stopping_generation: false,
    job: '',
    job_count: 0,
    job_timestamp: '0',
    job_no: 0,
    sampling_step: 0,
    sampling_steps: 0,
  };
  let timeStart = 0;
  let textinfo: string | null = null;
  let currentImage: Buffer | null = null;
  let currentImageStep = 0;
  let idLivePreview = 0;
  /** Paints the running batch's first image at a fraction of its sampling, for live previews. */
  let previewPainter: ((fraction: number) => Promise<Buffer>) | null = null;

  // modules/progress.py task tracking.
  let currentTask: string | null = null;
  const pendingTasks = new Map<string, number>();
  const finishedTasks: string[] = [];

  // One job at a time, first come first served (the webui's queue_lock).
  let lockTail: Promise<unknown> = Promise.resolve();
  const withLock = <T>(work: () => Promise<T>): Promise<T> => {
    const run = lockTail.then(work, work);
    lockTail = run.catch(() => undefined);
    return run;
  };

  const double: A1111Double = {
    url: '',
    flavour,
    requests,
    requestsTo: (path, method) => requests.filter((r) => r.path === path && (!method || r.method === method)),
    jobs,
    get interruptCount() {
      return interruptCount;
    },
    get loadedModel() {
      return loadedModel;
    },
    internalProgress: true,
    pngInfo: true,
    failNext(kind, path = '*generate*') {
      failures.set(path, kind);
    },
    async close() {
      closed = true;
      state.interrupted = true;
      await server.close();
    },
  };

  const resolveModel = (name: unknown): string => {
    if (typeof name !== 'string' || !name) return loadedModel;
    const found = models.find(
      (title) =>
        title === name ||
        modelName(title) === name ||
        title.replace(/\s*\[[0-9a-f]+\]$/i, '') === name ||
        modelHash(title) === name,
    );
    // sd_models.select_checkpoint: an unknown name loads the first checkpoint, with only a console warning.
    return found ?? models[0]!;
  };

  /** sd_samplers.get_sampler_and_scheduler + validate_sampler_name: "DPM++ 2M Karras" is DPM++ 2M with Karras. */
  const resolveSampler = (raw: unknown): { sampler: string; scheduler: string } => {
    let name = typeof raw === 'string' && raw ? raw : 'DPM++ 2M';
    let scheduler = 'Automatic';
    for (const label of SCHEDULERS) {
      if (name.endsWith(` ${label}`)) {
        scheduler = label;
        name = name.slice(0, -(label.length + 1));
        break;
      }
    }
    const sampler = SAMPLERS.find((s) => s.name === name || s.aliases.includes(name));
    if (!sampler) throw new ApiError(400, 'Sampler not found');
    return { sampler: sampler.name, scheduler };
  };

  const checkAuth = (req: IncomingMessage) => {
    if (!options.auth) return;
    const header = req.headers.authorization ?? '';
    if (!header.toLowerCase().startsWith('basic ')) {
      throw new ApiError(401, 'Not authenticated', { headers: { 'WWW-Authenticate': 'Basic' } });
    }
    const [user, ...rest] = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8').split(':');
    if (user !== options.auth.username || rest.join(':') !== options.auth.password) {
      throw new ApiError(401, 'Incorrect username or password', { headers: { 'WWW-Authenticate': 'Basic' } });
    }
  };

  const begin = (job: string, jobCount: number) => {
    state.skipped = false;
    state.interrupted = closed;
    state.stopping_generation = false;
    state.job = job;
    state.job_count = jobCount;
    state.job_no = 0;
    state.sampling_step = 0;
    state.sampling_steps = 0;
    state.job_timestamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    timeStart = Date.now();
    currentImage = null;
    currentImageStep = 0;
    textinfo = null;
  };

  const end = () => {
    state.job = '';
    state.job_count = 0;
    state.job_no = 0;
    state.sampling_step = 0;
    state.sampling_steps = 0;
    currentImage = null;
    previewPainter = null;
  };

  /** shared.state.set_current_image: previews are made lazily, when progress is asked for. */
  const setCurrentImage = async () => {
    if (!previewPainter || state.sampling_steps === 0) return;
    if (state.sampling_step - currentImageStep < previewEvery) return;
    const step = state.sampling_step;
    currentImage = await previewPainter(step / state.sampling_steps);
    currentImageStep = step;
    idLivePreview += 1;
  };

  const infotextOf = (
    body: any,
    seed: number,
    position: number,
    sampler: { sampler: string; scheduler: string },
    model: string,
    endpoint: string,
  ) => {
    const params: [string, string | number][] = [
      ['Steps', body.steps ?? 20],
      ['Sampler', sampler.sampler],
      ['Schedule type', sampler.scheduler],
      ['CFG scale', body.cfg_scale ?? 7],
      ['Seed', seed],
      ['Size', `${body.width ?? 512}x${body.height ?? 512}`],
      ['Model hash', modelHash(model)],
      ['Model', modelName(model)],
    ];
    if (endpoint === 'img2img') params.push(['Denoising strength', body.denoising_strength ?? 0.75]);
    if ((body.batch_size ?? 1) > 1) params.push(['Batch size', body.batch_size], ['Batch pos', position]);
    enabledUnits(body).forEach((unit: any, index: number) => {
      const text = [
        `Module: ${unit.module ?? 'none'}`,
        `Model: ${unit.model ?? 'None'}`,
        `Weight: ${unit.weight ?? 1}`,
        `Resize Mode: ${unit.resize_mode ?? 'Crop and Resize'}`,
        `Processor Res: ${unit.processor_res ?? -1}`,
        `Threshold A: ${unit.threshold_a ?? -1}`,
        `Threshold B: ${unit.threshold_b ?? -1}`,
        `Guidance Start: ${unit.guidance_start ?? 0}`,
        `Guidance End: ${unit.guidance_end ?? 1}`,
        `Pixel Perfect: ${unit.pixel_perfect ? 'True' : 'False'}`,
        `Control Mode: ${unit.control_mode ?? 'Balanced'}`,
      ].join(', ');
      params.push([`ControlNet ${index}`, `"${text}"`]);
    });
    params.push(['Version', flavour === 'forge' ? 'f2.0.1v1.10.1-previous-669-gdfdcbab6' : 'v1.10.1']);
    const lines = [body.prompt ?? ''];
    if (body.negative_prompt) lines.push(`Negative prompt: ${body.negative_prompt}`);
    lines.push(params.map(([key, value]) => `${key}: ${value}`).join(', '));
    return lines.join('\n');
  };

  /** ControlNet units that run: `enabled` defaults to false in the extension and to true in Forge. */
  const enabledUnits = (body: any): any[] => {
    const args = body.alwayson_scripts?.controlnet?.args;
    if (!Array.isArray(args)) return [];
    return args.filter((unit) => unit && typeof unit === 'object' && (unit.enabled ?? flavour === 'forge'));
  };

  const generate = async (endpoint: 'txt2img' | 'img2img', body: any) => {
    const taskId: string = body.force_task_id || `task(${randomBytes(8).toString('hex').slice(0, 15)})`;
    if (endpoint === 'img2img' && !Array.isArray(body.init_images)) throw new ApiError(404, 'Init image not found');
    const sampler = resolveSampler(body.sampler_name);
    for (const script of Object.keys(body.alwayson_scripts ?? {})) {
      if (script.toLowerCase() !== 'controlnet') throw new ApiError(422, `always on script ${script} not found`);
    }
    const width = Number(body.width ?? 512);
    const height = Number(body.height ?? 512);
    const batch = Math.max(1, Number(body.batch_size ?? 1));
    const nIter = Math.max(1, Number(body.n_iter ?? 1));
    const steps = Math.max(1, Number(body.steps ?? 20));
    const denoise = Number(body.denoising_strength ?? 0.75);
    // img2img samples only the denoised part of the schedule.
    const runSteps = endpoint === 'img2img' ? Math.max(1, Math.floor(steps * denoise)) : steps;
    const requested = Number(body.seed ?? -1);
    const seed = requested === -1 ? randomInt(0, 4294967294) : requested;
    const allSeeds = Array.from({ length: batch * nIter }, (_, i) => seed + i);
    const source: Source = { denoise };
    if (endpoint === 'img2img') {
      source.init = await readRaw(body.init_images[0], width, height, false);
      if (body.mask) source.mask = await readRaw(body.mask, width, height, true);
      if (source.mask && body.inpainting_mask_invert)
        for (let i = 0; i < source.mask.length; i++) source.mask[i] = 255 - source.mask[i]!;
    }
    pendingTasks.set(taskId, Date.now());

    return withLock(async () => {
      pendingTasks.delete(taskId);
      currentTask = taskId;
      begin(`scripts_${endpoint}`, nIter);
      const before = loadedModel;
      loadedModel = resolveModel(body.override_settings?.sd_model_checkpoint);
      const model = loadedModel;
      const images: string[] = [];
      const infotexts: string[] = [];
      let interrupted = false;
      try {
        for (let n = 0; n < nIter; n++) {
          if (state.interrupted) {
            interrupted = true;
            break;
          }
          state.job_no = n;
          state.sampling_step = 0;
          state.sampling_steps = runSteps;
          currentImageStep = 0;
          const firstSeed = allSeeds[n * batch]!;
          previewPainter = (fraction) => encodePng(paint(firstSeed, width, height, fraction, source), width, height);
          for (let s = 0; s < runSteps; s++) {
            if (state.interrupted || state.skipped) break;
            await sleep(stepDelayMs);
            state.sampling_step = s + 1;
          }
          if (state.interrupted) interrupted = true;
          // The sampler returns its latents as they are; the batch is decoded and saved either way.
          const fraction = state.sampling_step / runSteps;
          for (let b = 0; b < batch; b++) {
            const imageSeed = allSeeds[n * batch + b]!;
            const infotext = infotextOf(body, imageSeed, b, sampler, model, endpoint);
            let png = await encodePng(paint(imageSeed, width, height, fraction, source), width, height);
            if (double.pngInfo) png = withPngText(png, [['parameters', infotext]]);
            images.push(png.toString('base64'));
            infotexts.push(infotext);
          }
          state.job_no = n + 1;
          state.skipped = false;
        }
        // sd-webui-controlnet appends each unit's detected map after the batch.
        for (const unit of enabledUnits(body)) {
          const module = String(unit.module ?? 'none');
          const image = unit.image ?? unit.input_image;
          if (module.toLowerCase() === 'none' || typeof image !== 'string') continue;
          const map = await detectMap(image, module, { width, height });
          images.push(map.toString('base64'));
        }
      } finally {
        finishedTasks.push(taskId);
        if (finishedTasks.length > 16) finishedTasks.shift();
        if (currentTask === taskId) currentTask = null;
        end();
        if (body.override_settings_restore_afterwards ?? true) loadedModel = before;
      }
      jobs.push({ taskId, endpoint, model, seeds: allSeeds, interrupted, imageCount: infotexts.length });
      const info = {
        prompt: body.prompt ?? '',
        all_prompts: allSeeds.map(() => body.prompt ?? ''),
        negative_prompt: body.negative_prompt ?? '',
        all_negative_prompts: allSeeds.map(() => body.negative_prompt ?? ''),
        seed,
        all_seeds: allSeeds,
        subseed: seed + 1000,
        all_subseeds: allSeeds.map((s) => s + 1000),
        subseed_strength: 0,
        width,
        height,
        sampler_name: sampler.sampler,
        cfg_scale: body.cfg_scale ?? 7,
        steps,
        batch_size: batch,
        restore_faces: null,
        face_restoration_model: null,
        sd_model_name: modelName(model),
        sd_model_hash: modelHash(model),
        sd_vae_name: null,
        sd_vae_hash: null,
        seed_resize_from_w: -1,
        seed_resize_from_h: -1,
        denoising_strength: endpoint === 'img2img' ? denoise : null,
        extra_generation_params: {},
        index_of_first_image: 0,
        infotexts,
        styles: [],
        job_timestamp: state.job_timestamp,
        clip_skip: 1,
        is_using_inpainting_conditioning: false,
        version: flavour === 'forge' ? 'f2.0.1v1.10.1' : 'v1.10.1',
      };
      const parameters = { ...body };
      if (endpoint === 'img2img' && !body.include_init_images) {
        parameters.init_images = null;
        parameters.mask = null;
      }
      return { images, parameters, info: JSON.stringify(info) };
    });
  };

  const extrasSingleImage = async (body: any) => {
    const upscaler = body.upscaler_1 ?? 'None';
    if (!UPSCALERS.includes(upscaler)) {
      throw new ApiError(500, '', { errorName: 'AssertionError', errors: `could not find upscaler named ${upscaler}` });
    }
    if (typeof body.image !== 'string' || !body.image) throw new ApiError(500, 'Invalid encoded image');
    const source = decodeBase64Image(body.image);
    return withLock(async () => {
      begin('extras', 1);
      try {
        const meta = await sharp(source).metadata();
        const mode = Number(body.resize_mode ?? 0);
        const factor = Number(body.upscaling_resize ?? 2);
        const width = mode === 1 ? Number(body.upscaling_resize_w ?? 512) : Math.round((meta.width ?? 0) * factor);
        const height = mode === 1 ? Number(body.upscaling_resize_h ?? 512) : Math.round((meta.height ?? 0) * factor);
        let png = await sharp(source).resize(width, height, { fit: 'fill', kernel: 'lanczos3' }).png().toBuffer();
        if (double.pngInfo) {
          // run_postprocessing keeps the source's text and adds its own.
          const kept = meta.format === 'png' ? Object.entries(readPngText(source)) : [];
          const extra = `Postprocess upscale by: ${factor}, Postprocess upscaler: ${upscaler}`;
          png = withPngText(png, [...kept.filter(([key]) => key !== 'postprocessing'), ['postprocessing', extra]]);
        }
        return { html_info: '', image: png.toString('base64') };
      } finally {
        end();
      }
    });
  };

  const globalProgress = async (query: Record<string, string>) => {
    const snapshot = { ...state };
    if (state.job_count === 0) {
      return { progress: 0, eta_relative: 0, state: snapshot, current_image: null, textinfo };
    }
    // modules/api/api.py progressapi: "avoid dividing zero".
    let progress = 0.01;
    if (state.job_count > 0) progress += state.job_no / state.job_count;
    if (state.sampling_steps > 0) progress += ((1 / state.job_count) * state.sampling_step) / state.sampling_steps;
    const elapsed = (Date.now() - timeStart) / 1000;
    const etaRelative = elapsed / progress - elapsed;
    progress = Math.min(progress, 1);
    await setCurrentImage();
    const skip = queryFlag(query.skip_current_image, false);
    const current = currentImage && !skip ? currentImage.toString('base64') : null;
    return { progress, eta_relative: etaRelative, state: snapshot, current_image: current, textinfo };
  };

  const internalProgress = async (body: any) => {
    const idTask = body?.id_task ?? null;
    const requestedPreview = Number(body?.id_live_preview ?? -1);
    const active = idTask !== null && idTask === currentTask;
    const queued = pendingTasks.has(idTask);
    const completed = finishedTasks.includes(idTask);
    if (!active) {
      let text = 'Waiting...';
      if (queued) {
        const order = [...pendingTasks.entries()].sort((a, b) => a[1] - b[1]).map(([id]) => id);
        text = `In queue: ${order.indexOf(idTask) + 1}/${order.length}`;
      }
      return {
        active,
        queued,
        completed,
        progress: null,
        eta: null,
        live_preview: null,
        id_live_preview: -1,
        textinfo: text,
      };
    }
    let progress = 0;
    if (state.job_count > 0) progress += state.job_no / state.job_count;
    if (state.sampling_steps > 0 && state.job_count > 0)
      progress += ((1 / state.job_count) * state.sampling_step) / state.sampling_steps;
    progress = Math.min(progress, 1);
    const elapsed = (Date.now() - timeStart) / 1000;
    const eta = progress > 0 ? elapsed / progress - elapsed : null;
    let livePreview: string | null = null;
    let idLive = requestedPreview;
    if (body?.live_preview ?? true) {
      await setCurrentImage();
      if (idLivePreview !== requestedPreview && currentImage) {
        const encoded =
          previewFormat === 'png' ? currentImage : await sharp(currentImage).toFormat(previewFormat).toBuffer();
        livePreview = `data:image/${previewFormat};base64,${encoded.toString('base64')}`;
        idLive = idLivePreview;
      }
    }
    return {
      active,
      queued,
      completed,
      progress,
      eta,
      live_preview: livePreview,
      id_live_preview: idLive,
      textinfo,
    };
  };

  const detect = async (body: any) => {
    const module = String(body?.controlnet_module ?? 'none');
    const known = moduleNames.some((name) => name.toLowerCase() === module.toLowerCase());
    if (!known) throw new ApiError(422, 'Module not available');
    const images: string[] = Array.isArray(body?.controlnet_input_images) ? body.controlnet_input_images : [];
    if (images.length === 0) throw new ApiError(422, 'No image selected');
    const fallbackRes = flavour === 'forge' ? 512 : -1;
    const resolution = Number(body?.controlnet_processor_res ?? fallbackRes);
    const maps = [];
    for (const image of images) {
      maps.push((await detectMap(image, module, { resolution: resolution > 0 ? resolution : 512 })).toString('base64'));
    }
    return flavour === 'forge' ? { images: maps, info: 'Success' } : { info: 'Success', images: maps };
  };

  const getOptions = () => ({
    sd_model_checkpoint: loadedModel,
    samples_format: 'png',
    enable_pnginfo: double.pngInfo,
    live_previews_enable: true,
    live_previews_image_format: previewFormat,
    show_progress_every_n_steps: previewEvery,
    return_grid: true,
    ...(flavour === 'forge' ? { forge_preset: 'sd', forge_additional_modules: [] } : {}),
  });

  /** Routes as the webui mounts them; undefined means 404. */
  const route = async (req: IncomingMessage, path: string, query: Record<string, string>, body: any) => {
    const method = req.method ?? 'GET';
    if (path.startsWith('/sdapi/v1/')) checkAuth(req);
    const key = `${method} ${path}`;
    switch (key) {
      case 'POST /sdapi/v1/txt2img':
        return generate('txt2img', body ?? {});
      case 'POST /sdapi/v1/img2img':
        return generate('img2img', body ?? {});
      case 'POST /sdapi/v1/extra-single-image':
        return extrasSingleImage(body ?? {});
      case 'GET /sdapi/v1/progress':
        return globalProgress(query);
      case 'POST /sdapi/v1/interrupt':
        interruptCount += 1;
        state.interrupted = true;
        return {};
      case 'POST /sdapi/v1/skip':
        state.skipped = true;
        return {};
      case 'GET /sdapi/v1/sd-models':
        return models.map((title) => ({
          title,
          model_name: modelName(title),
          hash: modelHash(title),
          sha256: null,
          filename: `/models/Stable-diffusion/${title.replace(/\s*\[[0-9a-f]+\]$/i, '')}`,
          config: null,
        }));
      case 'GET /sdapi/v1/samplers':
        return SAMPLERS.map((s) => ({ name: s.name, aliases: s.aliases, options: {} }));
      case 'GET /sdapi/v1/schedulers':
        return SCHEDULERS.map((label) => ({
          name: label.toLowerCase().replace(/ /g, '_'),
          label,
          aliases: null,
          default_rho: -1,
          need_inner_model: false,
        }));
      case 'GET /sdapi/v1/upscalers':
        return UPSCALERS.map((name) => ({ name, model_name: null, model_path: null, model_url: null, scale: 4 }));
      case 'GET /sdapi/v1/options':
        return getOptions();
      case 'POST /sdapi/v1/options':
        if (body?.sd_model_checkpoint !== undefined) loadedModel = resolveModel(body.sd_model_checkpoint);
        return null;
      case 'POST /sdapi/v1/refresh-checkpoints':
        return null;
      case 'GET /sdapi/v1/loras':
        return loraList(options.loras ?? []);
      case 'GET /sdapi/v1/sd-vae':
        return flavour === 'a1111' ? vaeList(options.vaes ?? [], 'VAE') : undefined;
      case 'GET /sdapi/v1/sd-modules':
        return flavour === 'forge' ? vaeList(options.vaes ?? [], 'VAE') : undefined;
      case 'POST /internal/progress':
        return double.internalProgress ? internalProgress(body) : undefined;
      case 'GET /controlnet/version':
        return flavour === 'a1111' ? { version: 3 } : undefined;
      case 'GET /controlnet/settings':
        return flavour === 'a1111' ? { control_net_unit_count: 3 } : undefined;
      case 'GET /controlnet/model_list':
        return { model_list: CONTROLNET_MODELS };
      case 'GET /controlnet/module_list':
        // alias_names only renames in the extension; Forge has no module_detail at all.
        return flavour === 'forge'
          ? { module_list: moduleNames }
          : { module_list: moduleNames, module_detail: CONTROLNET_MODULES };
      case 'POST /controlnet/detect':
        return detect(body);
      default:
        return undefined;
    }
  };

  const send = (res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(payload);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  };

  const server = await startProviderServer(async (req, res, bytes) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const query = Object.fromEntries(url.searchParams);
    const raw = bytes.toString('utf8');
    let body: any;
    let invalid = false;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        invalid = true;
      }
    }
    requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query,
      body,
      authorization: req.headers.authorization,
    });
    const generating = /^\/sdapi\/v1\/(txt2img|img2img|extra-single-image)$/.test(url.pathname);
    const failure = failures.get(url.pathname) ?? (generating ? failures.get('*generate*') : undefined);
    if (failure) {
      failures.delete(failures.has(url.pathname) ? url.pathname : '*generate*');
      if (playTransportFailure(req, res, failure)) return;
      send(res, 500, {
        error: 'OutOfMemoryError',
        detail: '',
        body: '',
        errors: 'CUDA out of memory. Tried to allocate 2.00 GiB',
      });
      return;
    }
    if (invalid) {
      send(res, 422, { detail: [{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', input: {} }] });
      return;
    }
    try {
      const answer = await route(req, url.pathname, query, body);
      if (answer === undefined) send(res, 404, { detail: 'Not Found' });
      else send(res, 200, answer);
    } catch (error) {
      if (error instanceof ApiError) {
        const { errorName = 'HTTPException', errors, headers } = error.extra;
        const payload = {
          error: errorName,
          detail: error.detail,
          body: '',
          errors: errors ?? `${error.status}: ${error.detail}`,
        };
        send(res, error.status, payload, headers);
      } else {
        send(res, 500, { error: 'RuntimeError', detail: '', body: '', errors: String(error) });
      }
    }
  });
  double.url = server.url;
  return double;
}
