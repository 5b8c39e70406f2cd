import { createHash } from 'node:crypto';
import type { ComplianceSettings } from '@huafang/contracts';
import type { EngineImage } from '../../engines/engine.js';
import type { Database } from '../../platform/db/database.js';
import { newId, nowIso } from '../../platform/ids.js';
import { readBytes, type Storage } from '../../platform/storage/storage.js';
import type { UrlSigner } from '../../platform/url-signer.js';
import { producedLabel, withAigcLabel } from '../compliance/aigc-label.js';
import type { ComplianceService } from '../compliance/compliance.service.js';
import type { WorkRepository } from '../works/work.repository.js';
import { generatedImage, keepMarkedCopy, markedCopyKey, storeWorkFiles, workFileKeys } from '../works/work-files.js';
import type { GenerationRepository, JobRow } from './generation.repository.js';
import type { JobPayload } from './job-payload.js';
import type { ProgressStore } from './progress-store.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Scale-out mode: another run took this run's job over (BullMQ gave it to another worker after this one lost the
 * job's lock, e.g. Redis was away longer than JOB_LOCK_SECONDS). This run stops and writes nothing more.
 */
export class TakenOverError extends Error {
  constructor(jobId: string) {
    super(`generation job ${jobId} was taken over by another run`);
  }
}

/** A job's works: each finished image stored with its AIGC label and thumbnail, and shown on the board at once. */
export class WorkKeeper {
  constructor(
    private readonly deps: {
      db: Database;
      repo: GenerationRepository;
      works: WorkRepository;
      storage: Storage;
      compliance: ComplianceService;
      board: ProgressStore;
      signer: UrlSigner;
    },
  ) {}

  /**
   * Thumbnails and marked copies still being made: the process waits for them before it closes its storage and
   * database.
   */
  private readonly painting = new Set<Promise<void>>();

  /**
   * One finished image becomes a work, while the run that claimed the job at `claimedAt` still holds it; when that
   * fails, its files go too, so nothing half-kept remains.
   */
  async keep(
    row: JobRow,
    payload: JobPayload,
    backendName: string,
    image: EngineImage,
    claimedAt: string,
  ): Promise<{ workId: string; sha256: string }> {
    const workId = newId();
    // Every engine's image passes here: the implicit AIGC label goes into the stored original.
    const settings = await this.deps.compliance.settings();
    const png = withAigcLabel(image.png, producedLabel(settings.producer, workId));
    const files = await storeWorkFiles(this.deps.storage, workId, png).catch(async (err: unknown) => {
      await this.removeFiles(workId);
      throw err;
    });
    const work = {
      id: workId,
      user_id: row.user_id,
      generation_id: row.generation_id,
      job_id: row.id,
      template_id: payload.templateId,
      template_name: payload.templateName,
      template_step_id: payload.templateStepId,
      step_index: payload.stepIndex,
      mode: payload.mode,
      prompt: payload.prompt,
      negative_prompt: payload.negativePrompt,
      source_prompt: payload.sourcePrompt ?? null,
      source_negative_prompt: payload.sourceNegativePrompt ?? null,
      prompt_group: row.prompt_group,
      negative_prompt_group: row.negative_prompt_group,
      parameters: JSON.stringify({ ...payload.parameters, seed: image.seed, batchSize: 1 }),
      seed: image.seed,
      width: image.width,
      height: image.height,
      backend: backendName,
      image_key: files.imageKey,
      thumb_key: files.thumbKey,
      public: 0,
      views: 0,
      created_at: nowIso(),
    };
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        if (!(await this.deps.repo.holdsClaim(row.id, claimedAt, trx))) throw new TakenOverError(row.id);
        await this.deps.works.insert(work, trx);
      });
    } catch (err) {
      await files.thumbnail;
      await this.removeFiles(workId);
      throw err;
    }
    this.afterwards(workId, files.thumbnail, files.thumbKey);
    await this.deps.board.addImages(row.generation_id, row.id, [
      generatedImage({ id: workId, width: image.width, height: image.height, seed: image.seed }, this.deps.signer),
    ]);
    this.markLater(workId, files.imageKey, png, settings);
    // The stored original's own hash, AIGC label included: what the audit trail names as this work's file.
    return { workId, sha256: sha256(png) };
  }

  /**
   * The marked copy downloads and zips serve is painted once the result is shown, not before: painting takes about
   * as long as a few sampling steps.
   */
  private markLater(workId: string, imageKey: string, png: Buffer, settings: ComplianceSettings): void {
    if (!settings.markEnabled) return;
    this.afterwards(workId, keepMarkedCopy(this.deps.storage, imageKey, png, settings), markedCopyKey(imageKey));
  }

  /** A file made after the work was kept (`making`, stored at `key`): a work deleted meanwhile takes it with it. */
  private afterwards(workId: string, making: Promise<void>, key: string): void {
    const { storage, works } = this.deps;
    const done = making
      .then(async () => {
        if ((await works.existingIds([workId])).length === 0) await storage.remove(key);
      })
      .catch(() => undefined)
      .finally(() => this.painting.delete(done));
    this.painting.add(done);
  }

  /**
   * Resolves once every thumbnail and marked copy begun so far is kept (or has failed: a request makes it then),
   * or after `limitMs` (a storage that never answers must not hold the process).
   */
  async idle(limitMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.painting]),
      new Promise((resolve) => {
        timer = setTimeout(resolve, limitMs);
      }),
    ]);
    clearTimeout(timer);
  }

  private async removeFiles(workId: string): Promise<void> {
    const { imageKey, thumbKey } = workFileKeys(workId);
    await Promise.allSettled([
      this.deps.storage.remove(imageKey),
      this.deps.storage.remove(thumbKey),
      this.deps.storage.remove(markedCopyKey(imageKey)),
    ]);
  }

  /** Every work of the job with its original's hash: those of earlier runs (before a restart) read back from storage. */
  async hashes(jobId: string, known: ReadonlyMap<string, string>) {
    const works = await this.deps.works.listByJob(jobId);
    return Promise.all(
      works.map(async (work) => {
        const known256 = known.get(work.id);
        const stream = known256 ? null : await this.deps.storage.read(work.image_key);
        return { produceId: work.id, sha256: known256 ?? (stream ? sha256(await readBytes(stream)) : null) };
      }),
    );
  }
}
