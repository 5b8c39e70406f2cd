import { createHash } from 'node:crypto';
import { a1111SamplerFromComfy } from '@huafang/contracts';
import sharp from 'sharp';
import { type EngineImage, type EngineJob, formatInfotext, upscaleInfotext } from '../engine.js';
import { addPngText, withoutPngTextNamed } from '../png-text.js';
import type { ComfyUiClient } from './comfyui-client.js';
import { type GraphPlan, toComfySampler } from './comfyui-graph.js';
import type { HistoryEntry, OutputImage } from './comfyui-messages.js';

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

export async function toPng(bytes: Buffer): Promise<Buffer> {
  return isPng(bytes) ? bytes : sharp(bytes).png().toBuffer();
}

/**
 * Where our inputs go in the server's input folder. ComfyUI has no API to delete a file, so names are the
 * content's hash: the same picture is uploaded once (overwrite), two jobs never clash over a name, a repeated
 * job is served from ComfyUI's cache, and the folder grows by distinct pictures only; a subfolder keeps them out
 * of LoadImage's list in /object_info, and the operator can empty it (files older than a job's time limit).
 */
export const UPLOAD_SUBFOLDER = 'huafang';

/** ComfyUI's own text chunk: the whole batch's API graph, upload names included. Works do not keep it. */
const COMFY_PROMPT_CHUNK = 'prompt';

/** Images in and out of one server: inputs go up through /upload/image, results come back from /view as PNGs. */
export class ComfyUiImages {
  constructor(private readonly client: ComfyUiClient) {}

  async upload(bytes: Buffer): Promise<string> {
    const { ext, mime } = imageKind(bytes);
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
    const file = await this.client.uploadImage(bytes, `${hash}.${ext}`, mime, UPLOAD_SUBFOLDER);
    return file.subfolder ? `${file.subfolder}/${file.name}` : file.name;
  }

  view(ref: OutputImage): Promise<Buffer> {
    const query = new URLSearchParams({ filename: ref.filename, subfolder: ref.subfolder, type: ref.type });
    return this.client.getBytes(`/view?${query}`);
  }

  /**
   * The finished images of history, matched to their seeds by output node (ComfyUI finishes them in any
   * order), in batch order, as PNGs carrying the A1111 `parameters` text and ComfyUI's `workflow`, without its
   * `prompt` chunk.
   */
  async collect(entry: HistoryEntry, plan: GraphPlan, job: EngineJob): Promise<EngineImage[]> {
    const found: { index: number; ref: OutputImage }[] = [];
    for (const [node, refs] of entry.outputs) {
      const base = plan.outputs.get(node);
      if (base === undefined) continue;
      for (const [offset, ref] of refs.entries()) found.push({ index: base + offset, ref });
    }
    found.sort((a, b) => a.index - b.index);
    // PNG info names the sampler and scheduler the graph ran, in A1111's spelling; ComfyUI reports no model hash.
    const { samplerName, scheduler } = toComfySampler(job.sampler);
    const sampler = a1111SamplerFromComfy(samplerName, scheduler);
    const images: EngineImage[] = [];
    for (const { index, ref } of found) {
      const png = withoutPngTextNamed(await toPng(await this.view(ref)), [COMFY_PROMPT_CHUNK]);
      const width = png.readUInt32BE(16);
      const height = png.readUInt32BE(20);
      const seed = plan.seeds[index] ?? plan.seeds[0] ?? 0;
      const infotext =
        job.mode === 'upscale'
          ? upscaleInfotext(
              job,
              seed,
              { width, height },
              { factor: job.upscaleFactor ?? 2, upscaler: 'Lanczos' },
              { sampler },
            )
          : formatInfotext(job, seed, {
              sampler,
              extra: plan.sharedSampler && job.batchSize > 1 ? { 'Batch pos': index } : {},
            });
      images.push({ png: addPngText(png, 'parameters', infotext), seed, width, height, infotext, interrupted: false });
    }
    return images;
  }
}
