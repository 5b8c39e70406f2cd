import { z } from 'zod';
import {
  a1111SamplerFromComfy,
  a1111SamplerOf,
  CONTROLNET_CONTROL_MODES,
  modelBaseName,
  parseInfotext,
} from './infotext.js';
import { type LoraTag, loraTagsIn, withoutLoraTags } from './lora-tags.js';

/**
 * PNG info, read: what a picture made by 画坊, AUTOMATIC1111/Forge or ComfyUI says about how it was made.
 * Pure TypeScript over a Uint8Array (no Node APIs), so /draw reads a dropped file in the browser.
 */

/** Who made the picture: AUTOMATIC1111 or Forge, ComfyUI (not named `comfyui`: that string is the engine kind's), 画坊. */
export const pngInfoSourceSchema = z.enum(['a1111', 'comfy', 'huafang']);
export type PngInfoSource = z.infer<typeof pngInfoSourceSchema>;

/** One ControlNet unit, with the fields the A1111 ControlNet extension writes (`ControlNet 0: "Module: …"`). */
export const pngInfoControlNetSchema = z.object({
  module: z.string(),
  model: z.string(),
  weight: z.number().nullable(),
  resizeMode: z.string().nullable(),
  processorRes: z.number().nullable(),
  thresholdA: z.number().nullable(),
  thresholdB: z.number().nullable(),
  guidanceStart: z.number().nullable(),
  guidanceEnd: z.number().nullable(),
  pixelPerfect: z.boolean().nullable(),
  /** 0 Balanced, 1 My prompt is more important, 2 ControlNet is more important. */
  controlMode: z.number().int().nullable(),
});
export type PngInfoControlNet = z.infer<typeof pngInfoControlNetSchema>;

export const pngInfoLoraSchema = z.object({
  /** The LoRA's name as A1111 writes it in `<lora:name:weight>` (file base name, no folder or extension). */
  name: z.string(),
  weight: z.number(),
  hash: z.string().nullable(),
});

export const pngInfoSchema = z.object({
  source: pngInfoSourceSchema,
  /** The positive prompt, `<lora:…>` tags taken out (they are in `loras`). */
  prompt: z.string(),
  negativePrompt: z.string(),
  steps: z.number().int().nullable(),
  /** A1111's spelling, e.g. DPM++ 2M; with `scheduleType` (Karras) apart. */
  sampler: z.string().nullable(),
  scheduleType: z.string().nullable(),
  cfgScale: z.number().nullable(),
  seed: z.number().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** The checkpoint as the file names it (A1111 `Model`, ComfyUI `ckpt_name`). */
  model: z.string().nullable(),
  modelHash: z.string().nullable(),
  loras: z.array(pngInfoLoraSchema),
  denoisingStrength: z.number().nullable(),
  controlNets: z.array(pngInfoControlNetSchema),
});
export type PngInfo = z.infer<typeof pngInfoSchema>;

// ---- The chunk reader ----

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const latin1 = (bytes: Uint8Array) => {
  let out = '';
  for (const byte of bytes) out += String.fromCharCode(byte);
  return out;
};

async function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export function isPng(bytes: Uint8Array): boolean {
  return SIGNATURE.every((byte, i) => bytes[i] === byte);
}

/** Every tEXt, zTXt and iTXt of a PNG, keyword → text (the first of a keyword wins); null when it is no PNG. */
export async function readPngTextChunks(bytes: Uint8Array): Promise<Record<string, string> | null> {
  if (!isPng(bytes)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const utf8 = new TextDecoder('utf-8');
  const out: Record<string, string> = {};
  let offset = 8;
  while (offset + 12 <= bytes.length) {
    const length = view.getUint32(offset);
    const type = latin1(bytes.subarray(offset + 4, offset + 8));
    const data = bytes.subarray(offset + 8, Math.min(bytes.length, offset + 8 + length));
    offset += 12 + length;
    if (type === 'IEND') break;
    if (type !== 'tEXt' && type !== 'zTXt' && type !== 'iTXt') continue;
    const nul = data.indexOf(0);
    if (nul <= 0) continue;
    const keyword = latin1(data.subarray(0, nul));
    if (keyword in out) continue;
    try {
      if (type === 'tEXt') out[keyword] = latin1(data.subarray(nul + 1));
      else if (type === 'zTXt') out[keyword] = latin1(await inflate(data.subarray(nul + 2)));
      else {
        const compressed = data[nul + 1] === 1;
        const languageEnd = data.indexOf(0, nul + 3);
        const translatedEnd = data.indexOf(0, languageEnd + 1);
        if (languageEnd < 0 || translatedEnd < 0) continue;
        const body = data.subarray(translatedEnd + 1);
        out[keyword] = utf8.decode(compressed ? await inflate(body) : body);
      }
    } catch {
      // A damaged chunk is skipped; the others may still hold the recipe.
    }
  }
  return out;
}

// ---- A1111 / Forge / 画坊 `parameters` ----

const numberOr = (text: string | undefined): number | null => {
  if (text === undefined || text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
};
const intOr = (text: string | undefined) => {
  const value = numberOr(text);
  return value === null ? null : Math.round(value);
};

/** The prompt without its `<lora:name:weight>` tags, and the tags as LoRAs (an unreadable weight read as 1). */
export function takeLoraTags(prompt: string): { prompt: string; loras: LoraTag[] } {
  const loras = loraTagsIn(prompt).map(({ name, weight }) => ({ name, weight: Number.isFinite(weight) ? weight : 1 }));
  return { prompt: withoutLoraTags(prompt), loras };
}

/** `name: hash, name2: hash2` of A1111's `Lora hashes`. */
function loraHashes(text: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (text ?? '').split(',')) {
    const colon = part.lastIndexOf(':');
    if (colon > 0) out.set(part.slice(0, colon).trim(), part.slice(colon + 1).trim());
  }
  return out;
}

/** The ControlNet extension's unit text: `Field Name: value` split at commas, then at `: `. */
function controlNetUnit(text: string): PngInfoControlNet | null {
  const fields = new Map<string, string>();
  for (const part of text.split(',')) {
    const at = part.indexOf(': ');
    if (at > 0) fields.set(part.slice(0, at).trim(), part.slice(at + 2).trim());
  }
  const module = fields.get('Module');
  if (module === undefined) return null;
  const mode = fields.get('Control Mode');
  const modeIndex = mode === undefined ? -1 : CONTROLNET_CONTROL_MODES.indexOf(mode);
  const pixelPerfect = fields.get('Pixel Perfect');
  return {
    module,
    model: fields.get('Model') ?? 'None',
    weight: numberOr(fields.get('Weight')),
    resizeMode: fields.get('Resize Mode') ?? null,
    processorRes: numberOr(fields.get('Processor Res')),
    thresholdA: numberOr(fields.get('Threshold A')),
    thresholdB: numberOr(fields.get('Threshold B')),
    guidanceStart: numberOr(fields.get('Guidance Start')),
    guidanceEnd: numberOr(fields.get('Guidance End')),
    pixelPerfect: pixelPerfect === undefined ? null : pixelPerfect === 'True',
    controlMode: modeIndex >= 0 ? modeIndex : mode === undefined ? null : numberOr(mode),
  };
}

/** PNG info of an A1111-style `parameters` text, read by A1111's parse rules. */
export function pngInfoFromParameters(text: string, source: PngInfoSource = 'a1111'): PngInfo {
  const fields = parseInfotext(text);
  const { prompt, loras: tagged } = takeLoraTags(fields.Prompt ?? '');
  const hashes = loraHashes(fields['Lora hashes']);
  const named = a1111SamplerOf(fields.Sampler ?? '');
  const controlNets = Object.keys(fields)
    .filter((key) => /^ControlNet \d+$/.test(key))
    .sort((a, b) => Number(a.slice(11)) - Number(b.slice(11)))
    .map((key) => controlNetUnit(fields[key]!))
    .filter((unit): unit is PngInfoControlNet => unit !== null);
  return {
    source,
    prompt,
    negativePrompt: fields['Negative prompt'] ?? '',
    steps: intOr(fields.Steps),
    sampler: fields.Sampler ? named.sampler : null,
    // Before A1111 1.9 the schedule was part of the sampler's name ("DPM++ 2M Karras").
    scheduleType: fields['Schedule type'] ?? named.scheduleType,
    cfgScale: numberOr(fields['CFG scale']),
    seed: intOr(fields.Seed),
    width: intOr(fields['Size-1']),
    height: intOr(fields['Size-2']),
    model: fields.Model ?? null,
    modelHash: fields['Model hash'] ?? null,
    loras: tagged.map((lora) => ({ ...lora, hash: hashes.get(lora.name.replace(/[:,]/g, '')) ?? null })),
    denoisingStrength: numberOr(fields['Denoising strength']),
    controlNets,
  };
}

// ---- ComfyUI `prompt` (API graph) and `workflow` ----

type ComfyNode = { class_type: string; inputs: Record<string, unknown> };
type ComfyGraph = Record<string, ComfyNode>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isLink = (value: unknown): value is [string | number, number] =>
  Array.isArray(value) && value.length === 2 && (typeof value[0] === 'string' || typeof value[0] === 'number');

function asGraph(value: unknown): ComfyGraph | null {
  if (!isRecord(value)) return null;
  const graph: ComfyGraph = {};
  for (const [id, node] of Object.entries(value)) {
    if (isRecord(node) && typeof node.class_type === 'string' && isRecord(node.inputs)) {
      graph[id] = { class_type: node.class_type, inputs: node.inputs };
    }
  }
  return Object.keys(graph).length > 0 ? graph : null;
}

/** The widget names, in widgets_values order, of the nodes read from a `workflow` (UI format) alone. */
const WIDGETS: Record<string, readonly string[]> = {
  KSampler: ['seed', 'control_after_generate', 'steps', 'cfg', 'sampler_name', 'scheduler', 'denoise'],
  KSamplerAdvanced: [
    'add_noise',
    'noise_seed',
    'control_after_generate',
    'steps',
    'cfg',
    'sampler_name',
    'scheduler',
    'start_at_step',
    'end_at_step',
    'return_with_leftover_noise',
  ],
  CheckpointLoaderSimple: ['ckpt_name'],
  CLIPTextEncode: ['text'],
  EmptyLatentImage: ['width', 'height', 'batch_size'],
  LoraLoader: ['lora_name', 'strength_model', 'strength_clip'],
  LoraLoaderModelOnly: ['lora_name', 'strength_model'],
  ControlNetLoader: ['control_net_name'],
  ControlNetApply: ['strength'],
  ControlNetApplyAdvanced: ['strength', 'start_percent', 'end_percent'],
  Canny: ['low_threshold', 'high_threshold'],
};

/** A `workflow` (the UI's nodes and links) as an API graph, for the nodes PNG info reads. */
function graphOfWorkflow(value: unknown): ComfyGraph | null {
  if (!isRecord(value) || !Array.isArray(value.nodes)) return null;
  const linkSource = new Map<number, [string, number]>();
  for (const link of Array.isArray(value.links) ? value.links : []) {
    if (Array.isArray(link) && typeof link[0] === 'number') linkSource.set(link[0], [String(link[1]), Number(link[2])]);
  }
  const graph: ComfyGraph = {};
  for (const node of value.nodes) {
    if (!isRecord(node) || typeof node.type !== 'string') continue;
    const inputs: Record<string, unknown> = {};
    const names = WIDGETS[node.type] ?? [];
    const values = Array.isArray(node.widgets_values) ? node.widgets_values : [];
    names.forEach((name, i) => {
      if (i < values.length) inputs[name] = values[i];
    });
    for (const input of Array.isArray(node.inputs) ? node.inputs : []) {
      if (!isRecord(input) || typeof input.name !== 'string' || typeof input.link !== 'number') continue;
      const source = linkSource.get(input.link);
      if (source) inputs[input.name] = source;
    }
    graph[String(node.id)] = { class_type: node.type, inputs };
  }
  return Object.keys(graph).length > 0 ? graph : null;
}

const SAMPLER_NODES = ['KSampler', 'KSamplerAdvanced'];

/** PNG info of a ComfyUI graph: the sampler that starts from an empty latent (the first pass) and what feeds it. */
export function pngInfoFromComfyGraph(graph: ComfyGraph): PngInfo | null {
  const nodeAt = (link: unknown): ComfyNode | undefined => (isLink(link) ? graph[String(link[0])] : undefined);
  /** A widget value, following a link to a primitive node (PrimitiveNode, Int, String … keep it in `value`). */
  const widget = (value: unknown, depth = 0): unknown => {
    if (!isLink(value) || depth > 8) return value;
    const node = nodeAt(value);
    if (!node) return undefined;
    for (const key of ['value', 'seed', 'noise_seed', 'int', 'float', 'string', 'text', 'Text']) {
      if (key in node.inputs) return widget(node.inputs[key], depth + 1);
    }
    return undefined;
  };
  const num = (value: unknown): number | null => {
    const resolved = widget(value);
    return typeof resolved === 'number' && Number.isFinite(resolved) ? resolved : null;
  };
  const str = (value: unknown): string | null => {
    const resolved = widget(value);
    return typeof resolved === 'string' ? resolved : null;
  };

  const samplers = Object.values(graph).filter((node) => SAMPLER_NODES.includes(node.class_type));
  const startsEmpty = (node: ComfyNode) => {
    let latent = nodeAt(node.inputs.latent_image);
    for (let i = 0; latent && i < 8; i++) {
      if (latent.class_type === 'VAEEncode' || latent.class_type.startsWith('EmptyLatent')) return true;
      latent = nodeAt(latent.inputs.samples);
    }
    return false;
  };
  const sampler = samplers.find(startsEmpty) ?? samplers[0];
  if (!sampler) return null;

  const controlNets: PngInfoControlNet[] = [];
  const seen = new Set<ComfyNode>();
  /** The text of a conditioning, through ControlNet and combine nodes; ControlNet units found on the way. */
  const textOf = (link: unknown, side: 'positive' | 'negative', depth = 0): string => {
    const node = nodeAt(link);
    if (!node || depth > 16) return '';
    if (node.class_type.startsWith('CLIPTextEncode')) {
      return str(node.inputs.text) ?? str(node.inputs.text_g) ?? '';
    }
    if (node.class_type === 'ControlNetApply' || node.class_type === 'ControlNetApplyAdvanced') {
      if (!seen.has(node)) {
        seen.add(node);
        controlNets.push(controlNetOf(node));
      }
    }
    for (const key of [side, 'conditioning', 'conditioning_1', 'conditioning_to', 'conditioning_from']) {
      if (isLink(node.inputs[key])) return textOf(node.inputs[key], side, depth + 1);
    }
    return '';
  };
  const controlNetOf = (node: ComfyNode): PngInfoControlNet => {
    const loader = nodeAt(node.inputs.control_net);
    const image = nodeAt(node.inputs.image);
    const canny = image?.class_type === 'Canny';
    // Core ComfyUI's Canny thresholds run 0..1; the A1111 extension's 0..255.
    const threshold = (value: unknown) => {
      const n = num(value);
      return n === null ? null : canny && n <= 1 ? Math.round(n * 255) : n;
    };
    return {
      module: canny ? 'canny' : image && image.class_type !== 'LoadImage' ? image.class_type : 'none',
      model: modelBaseName(str(loader?.inputs.control_net_name) ?? 'None'),
      weight: num(node.inputs.strength),
      resizeMode: null,
      processorRes: num(image?.inputs.resolution),
      thresholdA: threshold(image?.inputs.low_threshold),
      thresholdB: threshold(image?.inputs.high_threshold),
      guidanceStart: num(node.inputs.start_percent),
      guidanceEnd: num(node.inputs.end_percent),
      pixelPerfect: null,
      controlMode: null,
    };
  };
  const prompt = textOf(sampler.inputs.positive, 'positive');
  const negativePrompt = textOf(sampler.inputs.negative, 'negative');

  // The model chain: LoRA loaders between the checkpoint and the sampler.
  const loras: PngInfo['loras'] = [];
  let model: string | null = null;
  let node = nodeAt(sampler.inputs.model);
  for (let i = 0; node && i < 32; i++) {
    if (node.class_type.startsWith('LoraLoader')) {
      const name = str(node.inputs.lora_name);
      if (name) loras.unshift({ name: modelBaseName(name), weight: num(node.inputs.strength_model) ?? 1, hash: null });
    }
    const checkpoint = str(node.inputs.ckpt_name) ?? str(node.inputs.unet_name);
    if (checkpoint) {
      model = checkpoint;
      break;
    }
    node = nodeAt(node.inputs.model);
  }

  let width: number | null = null;
  let height: number | null = null;
  let latent = nodeAt(sampler.inputs.latent_image);
  for (let i = 0; latent && i < 8 && width === null; i++) {
    width = num(latent.inputs.width);
    height = num(latent.inputs.height);
    latent = nodeAt(latent.inputs.samples);
  }

  const advanced = sampler.class_type === 'KSamplerAdvanced';
  const samplerName = str(sampler.inputs.sampler_name);
  const named = samplerName ? a1111SamplerFromComfy(samplerName, str(sampler.inputs.scheduler) ?? 'normal') : null;
  const denoise = num(sampler.inputs.denoise);
  return {
    source: 'comfy',
    prompt: prompt.trim(),
    negativePrompt: negativePrompt.trim(),
    steps: num(sampler.inputs.steps),
    sampler: named?.sampler ?? null,
    scheduleType: named?.scheduleType ?? null,
    cfgScale: num(sampler.inputs.cfg),
    seed: num(advanced ? sampler.inputs.noise_seed : sampler.inputs.seed),
    width,
    height,
    model,
    modelHash: null,
    loras,
    denoisingStrength: denoise !== null && denoise < 1 ? denoise : null,
    controlNets,
  };
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * PNG info of a PNG's text chunks: `parameters` (A1111, Forge, 画坊 — 画坊 when the GB 45438 `AIGC` label is
 * there too) first, else ComfyUI's `prompt` graph, else its `workflow`. Null when none says how it was made.
 */
export function pngInfoFromTexts(texts: Record<string, string>): PngInfo | null {
  if (texts.parameters?.trim()) return pngInfoFromParameters(texts.parameters, 'AIGC' in texts ? 'huafang' : 'a1111');
  const graph = asGraph(parseJson(texts.prompt)) ?? graphOfWorkflow(parseJson(texts.workflow));
  return graph ? pngInfoFromComfyGraph(graph) : null;
}

/** PNG info of a file's bytes; null when it is no PNG or carries no recipe. */
export async function readPngInfo(bytes: Uint8Array): Promise<PngInfo | null> {
  const texts = await readPngTextChunks(bytes);
  return texts ? pngInfoFromTexts(texts) : null;
}
