import { createHash } from 'node:crypto';
import {
  type A1111Sampler,
  a1111SamplerOf,
  CONTROLNET_CONTROL_MODES,
  joinInfotext,
  modelBaseName,
  pythonFloat,
} from '@huafang/contracts';
import type { EngineControlNet, EngineJob } from './engine.js';

/** A1111's display of a number in infotext: integers plainly, others without trailing zeros. */
export function infoNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(4)));
}

/** What an engine knows beyond the job: how it named the sampler and schedule, and the checkpoint's short hash. */
export type InfotextFacts = {
  /** The sampler and schedule actually run, in A1111's spelling; scheduleType null writes `Automatic`. */
  sampler: A1111Sampler;
  /** A1111's short model hash (10 hex), when the engine has one. */
  modelHash?: string | null;
  /** Pairs after the job's own (Batch pos, Postprocess upscale by …). */
  extra?: Record<string, string | number>;
};

/**
 * The facts of an engine that runs the sampler as named (the built-in engine, A1111 itself): a schedule only when
 * the name carries one ("DPM++ 2M Karras"), else A1111's `Automatic`.
 */
export function namedSamplerFacts(job: EngineJob, modelHash?: string | null): InfotextFacts {
  return { sampler: a1111SamplerOf(job.sampler), modelHash: modelHash ?? null };
}

/** A short hash for a checkpoint known only by name (the built-in engine's): 10 hex of its sha256, as A1111's. */
export const nameHash = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, 10);

/** The ControlNet extension forbids `,` and `:` in a unit's values (it writes nothing then): they are dropped. */
const unitValue = (text: string) => text.replace(/[,:]/g, '').trim() || 'None';

/** One unit with every field the ControlNet extension writes, in its order and its number style. */
function controlNetText(unit: EngineControlNet): string {
  const fields: [string, string][] = [
    ['Module', unitValue(unit.module)],
    ['Model', unitValue(unit.model)],
    ['Weight', pythonFloat(unit.weight ?? 1)],
    ['Resize Mode', 'Crop and Resize'],
    ['Processor Res', String(Math.round(unit.processorRes ?? 512))],
    ['Threshold A', pythonFloat(unit.thresholdA ?? -1)],
    ['Threshold B', pythonFloat(unit.thresholdB ?? -1)],
    ['Guidance Start', pythonFloat(unit.guidanceStart ?? 0)],
    ['Guidance End', pythonFloat(unit.guidanceEnd ?? 1)],
    ['Pixel Perfect', 'False'],
    ['Control Mode', CONTROLNET_CONTROL_MODES[unit.controlMode ?? 0] ?? 'Balanced'],
  ];
  return fields.map(([key, value]) => `${key}: ${value}`).join(', ');
}

/** The prompt as A1111 keeps it: a job's LoRAs as `<lora:name:weight>` tags, unless the prompt has them already. */
function promptWithLoraTags(job: EngineJob): string {
  const tags = (job.loras ?? [])
    .filter((lora) => !job.prompt.includes(`<lora:${lora.name}:`))
    .map((lora) => `<lora:${lora.name}:${infoNumber(lora.weight)}>`);
  return [job.prompt, ...tags].filter((part) => part.trim() !== '').join(', ');
}

/**
 * The AUTOMATIC1111 `parameters` text of one image, in the order and quoting of A1111's create_infotext, so that
 * its parse_generation_parameters (PNG Info, Civitai, ComfyUI loaders, our own /draw) reads every field back.
 */
export function formatInfotext(job: EngineJob, seed: number, facts: InfotextFacts): string {
  const pairs: [string, string | number][] = [
    ['Steps', infoNumber(job.steps)],
    ['Sampler', facts.sampler.sampler],
    ['Schedule type', facts.sampler.scheduleType ?? 'Automatic'],
    ['CFG scale', infoNumber(job.cfgScale)],
    ['Seed', String(seed)],
    ['Size', `${job.width}x${job.height}`],
  ];
  if (facts.modelHash) pairs.push(['Model hash', facts.modelHash]);
  pairs.push(['Model', modelBaseName(job.checkpoint)]);
  if ((job.mode === 'img2img' || job.mode === 'inpaint') && job.denoisingStrength !== undefined) {
    pairs.push(['Denoising strength', infoNumber(job.denoisingStrength)]);
  }
  (job.controlNets ?? []).forEach((unit, index) => {
    pairs.push([`ControlNet ${index}`, controlNetText(unit)]);
  });
  // A1111's Lora extension: the name as the prompt mentions it, without `:` and `,`, and the file's short hash.
  const hashes = (job.loras ?? [])
    .filter((lora) => lora.hash)
    .map((lora) => `${lora.name.replace(/[:,]/g, '')}: ${lora.hash}`);
  if (hashes.length > 0) pairs.push(['Lora hashes', hashes.join(', ')]);
  if (job.batchSize > 1) pairs.push(['Batch size', String(job.batchSize)]);
  for (const [key, value] of Object.entries(facts.extra ?? {})) pairs.push([key, value]);
  return joinInfotext(promptWithLoraTags(job), job.negativePrompt.trim() ? job.negativePrompt : '', pairs);
}

/** The infotext of an upscaled picture: the job's at the new size, with A1111's keys for the extras upscale. */
export function upscaleInfotext(
  job: EngineJob,
  seed: number,
  size: { width: number; height: number },
  upscale: { factor: number; upscaler: string },
  facts: Omit<InfotextFacts, 'extra'>,
): string {
  return formatInfotext({ ...job, ...size, batchSize: 1 }, seed, {
    ...facts,
    extra: { 'Postprocess upscale by': upscale.factor, 'Postprocess upscaler': upscale.upscaler },
  });
}
