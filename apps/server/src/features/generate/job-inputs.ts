import type { EngineControlNet, EngineJob } from '../../engines/engine.js';
import { fail } from '../../platform/errors.js';
import { readBytes, type Storage } from '../../platform/storage/storage.js';
import type { FileService } from '../files/file.service.js';
import type { WorkRepository, WorkRow } from '../works/work.repository.js';
import type { ImageSource, JobPayload } from './job-payload.js';

/** Seeds wrap like the engines' (A1111 and ComfyUI batches paint image i with seed + i). */
export const SEED_RANGE = 4294967296;

/** One engine run: `batchSize` images with seeds seed, seed + 1, … */
export type BatchRun = { seed: number; batchSize: number };

/**
 * Where a batch of `count` images began, from the seeds of images kept when `seed` was -1 (the engine drew
 * it): the smallest kept seed (modulo the seed range) from which every kept seed lies within the batch. Only jobs
 * queued before seeds were drawn at submission have -1 here; the guess can be wrong when the first image is missing.
 */
function inferredStart(keptSeeds: readonly number[], count: number): number | null {
  for (const candidate of [...keptSeeds].sort((a, b) => a - b)) {
    if (keptSeeds.every((s) => (s - candidate + SEED_RANGE) % SEED_RANGE < count)) return candidate;
  }
  return null;
}

/**
 * The runs still to paint: the whole batch on a first run; after a stop with images kept (a shutdown, a crash,
 * a failed backend), exactly the missing positions, each with the seed the whole batch gives it (seed + i), in
 * contiguous runs. The kept images can be any subset: ComfyUI finishes a batch's images in an order of its own.
 */
export function remainingBatch(payload: JobPayload, imageCount: number, kept: Pick<WorkRow, 'seed'>[]): BatchRun[] {
  const seed = payload.parameters.seed;
  if (kept.length === 0) return [{ seed, batchSize: imageCount }];
  const keptSeeds = kept.map((work) => Number(work.seed));
  const start = seed >= 0 ? seed : inferredStart(keptSeeds, imageCount);
  const have = new Set(keptSeeds);
  const missing: number[] = [];
  if (start !== null) {
    for (let i = 0; i < imageCount; i++) if (!have.has((start + i) % SEED_RANGE)) missing.push(i);
  }
  // Seeds that are not seed + i (a latent batch shares one seed): the rest follows the last kept image.
  if (start === null || missing.length !== imageCount - kept.length) {
    return [{ seed: (Math.max(...keptSeeds) + 1) % SEED_RANGE, batchSize: imageCount - kept.length }];
  }
  const runs: BatchRun[] = [];
  for (const i of missing) {
    const last = runs.at(-1);
    const runSeed = (start + i) % SEED_RANGE;
    if (last && (last.seed + last.batchSize) % SEED_RANGE === runSeed) last.batchSize++;
    else runs.push({ seed: runSeed, batchSize: 1 });
  }
  return runs;
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

  async engineJob(userId: string, payload: JobPayload, batch: BatchRun): Promise<EngineJob> {
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
