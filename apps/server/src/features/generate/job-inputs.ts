import type { EngineControlNet, EngineJob } from '../../engines/engine.js';
import { fail } from '../../platform/errors.js';
import { readBytes, type Storage } from '../../platform/storage/storage.js';
import type { FileService } from '../files/file.service.js';
import type { WorkRepository, WorkRow } from '../works/work.repository.js';
import type { ImageSource, JobPayload } from './job-payload.js';

/** Seeds wrap like the engines' (A1111 and ComfyUI batches paint image i with seed + i). */
const SEED_RANGE = 4294967296;

/**
 * The batch still to paint: all of it on a first run; after a stop with images kept (a shutdown, a crash),
 * only the rest, with the seeds the whole batch would have given them.
 */
export function remainingBatch(payload: JobPayload, imageCount: number, kept: WorkRow[]) {
  const first = kept[0];
  if (!first) return { seed: payload.parameters.seed, batchSize: imageCount };
  return { seed: (Number(first.seed) + kept.length) % SEED_RANGE, batchSize: imageCount - kept.length };
}

/** What an engine is asked to paint: the job's parameters with its input images loaded (uploads or earlier works). */
export class JobInputs {
  constructor(
    private readonly deps: {
      files: FileService;
      works: WorkRepository;
      storage: Storage;
    },
  ) {}

  private async image(userId: string, source: ImageSource): Promise<Buffer> {
    if (source.kind === 'file') return this.deps.files.readOwned(userId, source.id, '输入图片');
    const work = await this.deps.works.findOwned(userId, source.id);
    const stream = work ? await this.deps.storage.read(work.image_key) : null;
    if (!stream) throw fail('所选图片已不存在');
    return readBytes(stream);
  }

  async engineJob(userId: string, payload: JobPayload, batch: { seed: number; batchSize: number }): Promise<EngineJob> {
    const p = payload.parameters;
    const controlNets: EngineControlNet[] = [];
    for (const unit of p.controlNets) {
      controlNets.push({
        module: unit.controlnetModule,
        model: unit.controlnetModel,
        image: await this.image(userId, { kind: 'file', id: unit.inputImageFileId }),
        weight: unit.weight,
        guidanceStart: unit.guidanceStart,
        guidanceEnd: unit.guidanceEnd,
        processorRes: unit.processorRes,
        thresholdA: unit.thresholdA,
        thresholdB: unit.thresholdB,
        controlMode: unit.controlMode,
      });
    }
    return {
      mode: payload.mode,
      prompt: payload.prompt,
      negativePrompt: payload.negativePrompt,
      checkpoint: payload.checkpoint,
      sampler: p.sampler,
      steps: p.steps,
      cfgScale: p.cfgScale,
      width: p.width,
      height: p.height,
      seed: batch.seed,
      batchSize: batch.batchSize,
      denoisingStrength: p.denoisingStrength,
      upscaleFactor: p.upscaleFactor,
      ...(payload.initImage ? { initImage: await this.image(userId, payload.initImage) } : {}),
      ...(controlNets.length > 0 ? { controlNets } : {}),
      ...(payload.loras?.length ? { loras: payload.loras } : {}),
    };
  }
}
