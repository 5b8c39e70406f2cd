import { A1111_SAMPLERS } from '@huafang/contracts';
import type { EngineJob, EngineLora, PreprocessOptions } from '../engine.js';
import { isRecord } from './comfyui-messages.js';

/**
 * ComfyUI API-format graphs: `{node_id: {class_type, inputs}}`, an input linked to another node's output as
 * `[node_id, output_index]`. Pure functions, so the graphs can be checked without a server.
 */
export type ComfyLink = [nodeId: string, outputIndex: number];
export type ComfyInputValue = string | number | boolean | ComfyLink;
export type ComfyNode = { class_type: string; inputs: Record<string, ComfyInputValue> };
export type ComfyGraph = Record<string, ComfyNode>;

/** One input of a node in `/object_info`: `[type or combo list, {default, min, max, step, ...}]`. */
export type ComfyInputSpec = readonly unknown[];
export type ComfyNodeInfo = {
  input: { required: Record<string, ComfyInputSpec>; optional: Record<string, ComfyInputSpec> };
  output: string[];
};
export type ComfyObjectInfo = Record<string, ComfyNodeInfo>;

/**
 * How a batch is painted. `sequential`: one KSampler per image with seed + i (the A1111 convention), so each
 * image can be recalled alone and an interrupt keeps the images already saved. `latent`: one KSampler over a
 * latent batch (faster on a large GPU); ComfyUI then draws the whole batch from one seed.
 */
export type BatchMode = 'sequential' | 'latent';

export type UploadedImages = {
  /** LoadImage names of the uploaded init image, mask and ControlNet references. */
  init?: string;
  mask?: string;
  controls?: string[];
};

/** A ControlNet preprocessor resolved against a server's nodes; classType null passes the image through. */
export type ResolvedPreprocessor = {
  module: string;
  classType: string | null;
  inputs: Record<string, ComfyInputValue>;
  /** Our tuning field names the module shows (fromConfig). */
  fields: string[];
};

export type GraphPlan = {
  graph: ComfyGraph;
  /** KSampler node → index of the (first) image it paints. */
  samplers: Map<string, number>;
  /** SaveImage node → index of its first image. */
  outputs: Map<string, number>;
  /** The seed reported for each image of the batch. */
  seeds: number[];
  /** True when the images of the batch share one KSampler (and its seed). */
  sharedSampler: boolean;
};

const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(max, value));

/** Reads `/object_info` loosely: a node without the expected shape is left out rather than failing the list. */
export function parseObjectInfo(value: unknown): ComfyObjectInfo {
  const out: ComfyObjectInfo = {};
  if (!isRecord(value)) return out;
  const specs = (group: unknown): Record<string, ComfyInputSpec> => {
    const result: Record<string, ComfyInputSpec> = {};
    if (!isRecord(group)) return result;
    for (const [name, spec] of Object.entries(group)) if (Array.isArray(spec)) result[name] = spec;
    return result;
  };
  for (const [name, node] of Object.entries(value)) {
    if (!isRecord(node)) continue;
    const input = isRecord(node.input) ? node.input : {};
    out[name] = {
      input: { required: specs(input.required), optional: specs(input.optional) },
      output: Array.isArray(node.output) ? node.output.filter((t): t is string => typeof t === 'string') : [],
    };
  }
  return out;
}

/** The choices of a combo input, in the classic `[[...values]]` form or the newer `["COMBO", {options}]`. */
export function comboOptions(spec: ComfyInputSpec | undefined): string[] {
  if (!spec) return [];
  const [head, config] = spec;
  const list = Array.isArray(head) ? head : head === 'COMBO' && isRecord(config) ? config.options : undefined;
  return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
}

/** The combo list of one input of one node, e.g. `CheckpointLoaderSimple.ckpt_name`. */
export function nodeCombo(info: ComfyObjectInfo, node: string, input: string): string[] {
  const spec = info[node]?.input.required[input] ?? info[node]?.input.optional[input];
  return comboOptions(spec);
}

type NumberSpec = { integer: boolean; default?: number; min?: number; max?: number; step?: number };

function numberSpec(spec: ComfyInputSpec): NumberSpec | null {
  const [type, config] = spec;
  if (type !== 'INT' && type !== 'FLOAT') return null;
  const read = (key: string) => (isRecord(config) && typeof config[key] === 'number' ? config[key] : undefined);
  return { integer: type === 'INT', default: read('default'), min: read('min'), max: read('max'), step: read('step') };
}

function fitNumber(value: number, spec: NumberSpec): number {
  let out = clamp(value, spec.min ?? -Infinity, spec.max ?? Infinity);
  if (spec.integer) out = Math.round(out);
  else out = Math.round(out * 1000) / 1000;
  return out;
}

/** A value a required input can be given when we have nothing better: its default, first choice or minimum. */
function defaultValue(spec: ComfyInputSpec): string | number | boolean | undefined {
  const choices = comboOptions(spec);
  const [type, config] = spec;
  const configured = isRecord(config) ? config.default : undefined;
  if (choices.length > 0)
    return typeof configured === 'string' && choices.includes(configured) ? configured : choices[0];
  if (type === 'BOOLEAN') return typeof configured === 'boolean' ? configured : false;
  if (type === 'STRING') return typeof configured === 'string' ? configured : '';
  const numeric = numberSpec(spec);
  if (numeric) return numeric.default ?? numeric.min ?? 0;
  return undefined;
}

// Sampler names: our forms use AUTOMATIC1111's display names (A1111_SAMPLERS); ComfyUI splits them into
// sampler_name + scheduler.
const SAMPLER_NAMES = A1111_SAMPLERS;

const SCHEDULE_SUFFIXES: readonly (readonly [suffix: string, scheduler: string])[] = [
  [' karras', 'karras'],
  [' exponential', 'exponential'],
  [' sgm uniform', 'sgm_uniform'],
  [' beta', 'beta'],
];

/** The scheduler A1111 (1.9+, "Automatic") picks for a sampler named without a schedule suffix. */
const DEFAULT_SCHEDULERS: Record<string, string> = {
  dpmpp_2m: 'karras',
  dpmpp_sde: 'karras',
  dpmpp_2m_sde: 'exponential',
  dpmpp_3m_sde: 'exponential',
  // A1111's DDIM steps through uniformly spaced timesteps.
  ddim: 'ddim_uniform',
};

/** The samplers older A1111 also listed as "<name> Karras"; we offer those when the server has karras. */
const KARRAS_VARIANTS = new Set([
  'lms',
  'dpm_2',
  'dpm_2_ancestral',
  'dpmpp_2s_ancestral',
  'dpmpp_2m',
  'dpmpp_sde',
  'dpmpp_2m_sde',
]);

/** "DPM++ 2M Karras" → dpmpp_2m / karras. A name we do not know (or a ComfyUI name) goes through as is. */
export function toComfySampler(sampler: string): { samplerName: string; scheduler: string } {
  let name = sampler.trim();
  let scheduler: string | undefined;
  const lower = name.toLowerCase();
  for (const [suffix, value] of SCHEDULE_SUFFIXES) {
    if (lower.endsWith(suffix) && lower.length > suffix.length) {
      name = name.slice(0, -suffix.length);
      scheduler = value;
      break;
    }
  }
  const known = SAMPLER_NAMES.find(([display]) => display.toLowerCase() === name.toLowerCase());
  if (!known) {
    // Not an A1111 name: keep the whole text, ComfyUI names (euler, res_multistep) need no scheduler suffix.
    const raw = sampler.trim();
    return { samplerName: raw, scheduler: DEFAULT_SCHEDULERS[raw] ?? 'normal' };
  }
  const samplerName = known[1];
  return { samplerName, scheduler: scheduler ?? DEFAULT_SCHEDULERS[samplerName] ?? 'normal' };
}

/** A ComfyUI sampler_name as the A1111-style name our forms show; an unknown name stays as it is. */
export function fromComfySampler(samplerName: string): string {
  return SAMPLER_NAMES.find(([, comfy]) => comfy === samplerName)?.[0] ?? samplerName;
}

/** The sampler list of a server in our display names, with the "<name> Karras" variants A1111 users know. */
export function samplerDisplayNames(samplerNames: readonly string[], schedulers: readonly string[]): string[] {
  const out: string[] = [];
  const karras = schedulers.includes('karras');
  for (const name of samplerNames) {
    const display = fromComfySampler(name);
    if (!out.includes(display)) out.push(display);
    if (karras && KARRAS_VARIANTS.has(name) && display !== name) out.push(`${display} Karras`);
  }
  return out;
}

// ControlNet preprocessors. Core ComfyUI has Canny and ImageInvert; the others are comfyui_controlnet_aux nodes,
// used only when a server's /object_info lists them. The first listed node a server has wins.
type PreprocessorDef = { module: string; label: string; aliases: readonly string[]; nodes: readonly string[] };

export const COMFY_PREPROCESSORS: readonly PreprocessorDef[] = [
  { module: 'canny', label: 'Canny 边缘', aliases: [], nodes: ['Canny', 'CannyEdgePreprocessor'] },
  {
    module: 'depth',
    label: '深度图',
    aliases: ['depth_midas', 'depth_anything', 'depth_zoe'],
    nodes: ['DepthAnythingPreprocessor', 'MiDaS-DepthMapPreprocessor', 'Zoe-DepthMapPreprocessor'],
  },
  {
    module: 'lineart',
    label: '线稿提取',
    aliases: ['lineart_realistic', 'lineart_coarse'],
    nodes: ['LineArtPreprocessor'],
  },
  { module: 'lineart_anime', label: '动漫线稿', aliases: [], nodes: ['AnimeLineArtPreprocessor'] },
  {
    module: 'openpose',
    label: '人体姿态',
    aliases: ['openpose_full', 'dw_openpose_full'],
    nodes: ['DWPreprocessor', 'OpenposePreprocessor'],
  },
  { module: 'softedge', label: '软边缘（HED）', aliases: ['softedge_hed', 'hed'], nodes: ['HEDPreprocessor'] },
  { module: 'scribble', label: '涂鸦', aliases: ['scribble_hed'], nodes: ['ScribblePreprocessor'] },
  { module: 'mlsd', label: '直线检测（M-LSD）', aliases: [], nodes: ['M-LSDPreprocessor'] },
  { module: 'tile', label: '分块（Tile）', aliases: ['tile_resample'], nodes: ['TilePreprocessor'] },
  { module: 'invert', label: '反色（白底线稿）', aliases: [], nodes: ['ImageInvert'] },
];

const BASE_FIELDS = ['weight', 'guidanceStart', 'guidanceEnd'];
export const isNoneModule = (module: string) => ['', 'none'].includes(module.trim().toLowerCase());

function findPreprocessor(module: string): PreprocessorDef | undefined {
  const key = module.trim().toLowerCase();
  return COMFY_PREPROCESSORS.find((def) => def.module === key || def.aliases.includes(key));
}

/** A threshold on our 0..255 scale fitted to the node's input (core Canny takes 0.01..0.99 floats). */
function thresholdValue(raw: number | undefined, spec: NumberSpec, fallback: number): number {
  if (raw === undefined || raw < 0) return spec.default ?? fitNumber(fallback, spec);
  const scaled = (spec.max ?? 255) <= 1 ? raw / 255 : raw;
  return fitNumber(scaled, spec);
}

/**
 * The inputs of a preprocessor node from its /object_info entry: resolution and thresholds from our options,
 * other required inputs at their defaults. Null when the node needs something we cannot give (a model link).
 */
function preprocessorInputs(
  info: ComfyNodeInfo,
  options: PreprocessOptions,
): { inputs: Record<string, ComfyInputValue>; fields: string[] } | null {
  const inputs: Record<string, ComfyInputValue> = {};
  const fields = new Set<string>();
  let takesImage = false;
  const groups = [
    [info.input.required, true],
    [info.input.optional, false],
  ] as const;
  for (const [group, required] of groups) {
    for (const [name, spec] of Object.entries(group)) {
      if (name === 'image' && spec[0] === 'IMAGE') {
        takesImage = true;
        continue;
      }
      const numeric = numberSpec(spec);
      if (name === 'resolution' && numeric) {
        inputs[name] = fitNumber(options.processorRes ?? 512, numeric);
        fields.add('processorRes');
      } else if ((name === 'low_threshold' || name === 'high_threshold') && numeric) {
        const low = name === 'low_threshold';
        inputs[name] = thresholdValue(low ? options.thresholdA : options.thresholdB, numeric, low ? 100 : 200);
        fields.add(low ? 'thresholdA' : 'thresholdB');
      } else if (required) {
        const value = defaultValue(spec);
        if (value === undefined) return null;
        inputs[name] = value;
      }
    }
  }
  if (!takesImage) return null;
  const order = ['processorRes', 'thresholdA', 'thresholdB'].filter((field) => fields.has(field));
  return { inputs, fields: [...order, ...BASE_FIELDS] };
}

/** A module (our or A1111's name) resolved to a node this server has; null when the server cannot run it. */
export function resolvePreprocessor(
  module: string,
  info: ComfyObjectInfo,
  options: PreprocessOptions = {},
): ResolvedPreprocessor | null {
  if (isNoneModule(module)) return { module: 'none', classType: null, inputs: {}, fields: [...BASE_FIELDS] };
  const def = findPreprocessor(module);
  if (!def) return null;
  for (const node of def.nodes) {
    const nodeInfo = info[node];
    if (!nodeInfo) continue;
    const resolved = preprocessorInputs(nodeInfo, options);
    if (resolved) return { module: def.module, classType: node, ...resolved };
  }
  return null;
}

/** The preprocessors a server can run, as ControlNet module options: none first. */
export function preprocessorOptions(
  info: ComfyObjectInfo,
): { label: string; value: string; moduleName: string; fromConfig: string }[] {
  const options = [{ label: '无预处理', value: 'none', moduleName: 'none', fromConfig: JSON.stringify(BASE_FIELDS) }];
  for (const def of COMFY_PREPROCESSORS) {
    const resolved = resolvePreprocessor(def.module, info);
    if (!resolved) continue;
    options.push({
      label: def.label,
      value: def.module,
      moduleName: def.module,
      fromConfig: JSON.stringify(resolved.fields),
    });
  }
  return options;
}

class GraphBuilder {
  readonly graph: ComfyGraph = {};
  private next = 1;

  add(classType: string, inputs: Record<string, ComfyInputValue>): string {
    const id = String(this.next++);
    this.graph[id] = { class_type: classType, inputs };
    return id;
  }
}

const out = (nodeId: string, index = 0): ComfyLink => [nodeId, index];

/**
 * One LoraLoader per LoRA between the checkpoint and what uses its MODEL and CLIP (the text encoders, the
 * samplers), each taking the previous one's outputs; the weight applies to both, as `<lora:name:w>` does in A1111.
 */
function loraChain(
  builder: GraphBuilder,
  model: ComfyLink,
  clip: ComfyLink,
  loras: readonly EngineLora[],
): { model: ComfyLink; clip: ComfyLink } {
  let links = { model, clip };
  for (const lora of loras) {
    const loader = builder.add('LoraLoader', {
      model: links.model,
      clip: links.clip,
      lora_name: lora.name,
      strength_model: lora.weight,
      strength_clip: lora.weight,
    });
    links = { model: out(loader, 0), clip: out(loader, 1) };
  }
  return links;
}

export type GenerationGraphOptions = {
  seed: number;
  images?: UploadedImages;
  /** One per ControlNet unit, in order; a missing entry passes the reference image through. */
  preprocessors?: readonly (ResolvedPreprocessor | null)[];
  batchMode?: BatchMode;
  filenamePrefix?: string;
};

/**
 * The graph of a job. txt2img: CheckpointLoaderSimple → CLIPTextEncode ×2 → (ControlNet chain) → EmptyLatentImage
 * → KSampler → VAEDecode → SaveImage. img2img/inpaint start from LoadImage → ImageScale → VAEEncode
 * (→ SetLatentNoiseMask). upscale is LoadImage → ImageScaleBy → SaveImage.
 */
export function buildGenerationGraph(job: EngineJob, options: GenerationGraphOptions): GraphPlan {
  const { seed, images = {}, batchMode = 'sequential', filenamePrefix = 'huafang' } = options;
  const builder = new GraphBuilder();
  const samplers = new Map<string, number>();
  const outputs = new Map<string, number>();

  if (job.mode === 'upscale') {
    if (!images.init) throw new Error('upscale graph needs the uploaded init image');
    const load = builder.add('LoadImage', { image: images.init });
    const scaled = builder.add('ImageScaleBy', {
      image: out(load),
      upscale_method: 'lanczos',
      scale_by: clamp(job.upscaleFactor ?? 2, 1, 4),
    });
    outputs.set(builder.add('SaveImage', { images: out(scaled), filename_prefix: filenamePrefix }), 0);
    return { graph: builder.graph, samplers, outputs, seeds: [seed], sharedSampler: false };
  }

  const batch = Math.max(1, Math.floor(job.batchSize));
  const shared = batchMode === 'latent';
  const checkpoint = builder.add('CheckpointLoaderSimple', { ckpt_name: job.checkpoint });
  const { model, clip } = loraChain(builder, out(checkpoint, 0), out(checkpoint, 1), job.loras ?? []);
  const positiveText = builder.add('CLIPTextEncode', { text: job.prompt, clip });
  const negativeText = builder.add('CLIPTextEncode', { text: job.negativePrompt, clip });
  let positive = out(positiveText);
  let negative = out(negativeText);

  (job.controlNets ?? []).forEach((unit, index) => {
    const reference = images.controls?.[index];
    if (!reference) throw new Error(`ControlNet unit ${index} has no uploaded image`);
    const load = builder.add('LoadImage', { image: reference });
    let hint = out(load);
    const pre = options.preprocessors?.[index];
    if (pre?.classType) hint = out(builder.add(pre.classType, { ...pre.inputs, image: hint }));
    const model = builder.add('ControlNetLoader', { control_net_name: unit.model });
    const apply = builder.add('ControlNetApplyAdvanced', {
      positive,
      negative,
      control_net: out(model),
      image: hint,
      strength: clamp(unit.weight ?? 1, 0, 10),
      start_percent: clamp(unit.guidanceStart ?? 0, 0, 1),
      end_percent: clamp(unit.guidanceEnd ?? 1, 0, 1),
    });
    positive = out(apply, 0);
    negative = out(apply, 1);
  });

  const fromImage = job.mode === 'img2img' || job.mode === 'inpaint';
  let latent: ComfyLink;
  if (fromImage) {
    if (!images.init) throw new Error('img2img graph needs the uploaded init image');
    const load = builder.add('LoadImage', { image: images.init });
    // A1111 resizes the init image to the job's size; so do we, before encoding.
    const scaled = builder.add('ImageScale', {
      image: out(load),
      upscale_method: 'lanczos',
      width: job.width,
      height: job.height,
      crop: 'disabled',
    });
    latent = out(builder.add('VAEEncode', { pixels: out(scaled), vae: out(checkpoint, 2) }));
    if (job.mode === 'inpaint' && images.mask) {
      // White repaints: the red channel of the mask image is the noise mask (resized to the latent by ComfyUI).
      const mask = builder.add('LoadImageMask', { image: images.mask, channel: 'red' });
      latent = out(builder.add('SetLatentNoiseMask', { samples: latent, mask: out(mask) }));
    }
    if (shared && batch > 1) latent = out(builder.add('RepeatLatentBatch', { samples: latent, amount: batch }));
  } else {
    latent = out(
      builder.add('EmptyLatentImage', { width: job.width, height: job.height, batch_size: shared ? batch : 1 }),
    );
  }

  const { samplerName, scheduler } = toComfySampler(job.sampler);
  const denoise = fromImage ? clamp(job.denoisingStrength ?? 0.75, 0, 1) : 1;
  const samplerCount = shared ? 1 : batch;
  for (let i = 0; i < samplerCount; i++) {
    const sampler = builder.add('KSampler', {
      model,
      seed: seed + i,
      steps: job.steps,
      cfg: job.cfgScale,
      sampler_name: samplerName,
      scheduler,
      positive,
      negative,
      latent_image: latent,
      denoise,
    });
    const decoded = builder.add('VAEDecode', { samples: out(sampler), vae: out(checkpoint, 2) });
    const save = builder.add('SaveImage', { images: out(decoded), filename_prefix: filenamePrefix });
    samplers.set(sampler, i);
    outputs.set(save, i);
  }
  const seeds = Array.from({ length: batch }, (_, i) => (shared ? seed : seed + i));
  return { graph: builder.graph, samplers, outputs, seeds, sharedSampler: shared };
}

/** LoadImage → preprocessor → PreviewImage (a temp file, so previews do not fill the output folder). */
export function buildPreprocessGraph(imageName: string, preprocessor: ResolvedPreprocessor): ComfyGraph {
  const builder = new GraphBuilder();
  const load = builder.add('LoadImage', { image: imageName });
  let image = out(load);
  if (preprocessor.classType) image = out(builder.add(preprocessor.classType, { ...preprocessor.inputs, image }));
  builder.add('PreviewImage', { images: image });
  return builder.graph;
}
