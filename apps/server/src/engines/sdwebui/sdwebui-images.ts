import { modelHashInTitle } from '@huafang/contracts';
import sharp from 'sharp';
import type { z } from 'zod';
import {
  type EngineImage,
  type EngineJob,
  type EngineProgress,
  type EngineResult,
  formatInfotext,
  upscaleInfotext,
} from '../engine.js';
import { namedSamplerFacts } from '../infotext.js';
import { addPngText, readPngText } from '../png-text.js';
import { type GenerateInfo, generateInfoSchema, type generateResponseSchema } from './sdwebui-types.js';

type PreviewMime = NonNullable<EngineProgress['previewMime']>;
export type Preview = { data: Buffer; mime: PreviewMime };

export const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(max, value));

/** The image type of some bytes, from their magic numbers (servers may be set to answer JPEG or WebP). */
function sniffImage(data: Buffer): PreviewMime | undefined {
  if (data.length >= 8 && data.readUInt32BE(0) === 0x89504e47) return 'image/png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  return undefined;
}

/** A base64 image, bare or as a data URI. */
export function decodeImage(encoded: string): Preview | undefined {
  const comma = encoded.startsWith('data:') ? encoded.indexOf(',') : -1;
  const data = Buffer.from(comma >= 0 ? encoded.slice(comma + 1) : encoded, 'base64');
  const mime = sniffImage(data);
  return mime ? { data, mime } : undefined;
}

export async function toPng(image: Preview): Promise<Buffer> {
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
 * The generated images of a txt2img / img2img answer. Extensions append images after the batch (ControlNet's
 * detected maps) and a grid may lead it (`index_of_first_image`); `infotexts` has one entry per image, grid included.
 */
export async function generatedImages(
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
      infotext =
        texts[first + i] || formatInfotext(job, seed, namedSamplerFacts(job, modelHashInTitle(job.checkpoint)));
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

/** The image of an extras answer, which keeps the source's `parameters` (the picture's own recipe); a bare source gets ours. */
export async function upscaledImage(
  job: EngineJob,
  decoded: Preview,
  upscale: { factor: number; upscaler: string },
): Promise<EngineImage> {
  let png = await toPng(decoded);
  const meta = await sharp(png).metadata();
  const width = meta.width ?? Math.round(job.width * upscale.factor);
  const height = meta.height ?? Math.round(job.height * upscale.factor);
  let infotext = readPngText(png).parameters;
  const recorded = infotext?.match(/(?:^|, )Seed: (\d+)/m)?.[1];
  const seed = recorded ? Number(recorded) : Math.max(0, job.seed);
  if (!infotext) {
    infotext = upscaleInfotext(
      job,
      seed,
      { width, height },
      upscale,
      namedSamplerFacts(job, modelHashInTitle(job.checkpoint)),
    );
    png = addPngText(png, 'parameters', infotext);
  }
  return { png, seed, width, height, infotext, interrupted: false };
}
