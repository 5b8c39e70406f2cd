import type { GenerationProgress, GenerationStatus, UnfinishedGeneration } from '@huafang/contracts';
import { fail, notFound } from '../../platform/errors.js';
import type { UrlSigner } from '../../platform/url-signer.js';
import type { Viewer } from '../template/template.service.js';
import type { WorkRepository } from '../works/work.repository.js';
import { generatedImage } from '../works/work-files.js';
import type { GenerationRepository } from './generation.repository.js';
import type { InterruptChannel } from './interrupt-channel.js';
import type { JobQueue } from './job-queue.js';
import type { ProgressStore } from './progress-store.js';

/** The user's own generation, or 404 (another user's is "not found" too, so ids leak nothing). */
export async function ownGeneration(repo: GenerationRepository, userId: string, generateId: string) {
  const generation = await repo.findGeneration(generateId);
  if (!generation || generation.user_id !== userId) throw notFound('生成任务不存在');
  return generation;
}

/** Spec §7 Generation after the submit: progress, interrupt and the unfinished lookup of a reloaded page. */
export class GenerationTracking {
  constructor(
    private readonly deps: {
      repo: GenerationRepository;
      works: WorkRepository;
      queue: JobQueue;
      board: ProgressStore;
      interrupts: InterruptChannel;
      signer: UrlSigner;
    },
  ) {}

  /** The hot path: the progress store only, unless it no longer has the generation (after a restart or long after). */
  async progress(viewer: Viewer, generateId: string): Promise<GenerationProgress> {
    const { board, queue } = this.deps;
    let found = await board.read(viewer.id, generateId);
    if (found === null) throw notFound('生成任务不存在');
    if (found === undefined) {
      await this.restore(viewer.id, generateId);
      found = await board.read(viewer.id, generateId);
      if (!found) throw notFound('生成任务不存在');
    }
    const { jobId } = found;
    // Most polls come before any image: they skip the lookup and its await.
    const snapshot = found.snapshot.images.length === 0 ? found.snapshot : await this.withoutDeleted(found.snapshot);
    if (snapshot.status !== 'queued') return snapshot;
    return { ...snapshot, ...(await queue.standing({ jobId, generateId })) };
  }

  /** The progress store keeps the images it was told of; a work the user deleted since is no longer shown. */
  private async withoutDeleted(snapshot: GenerationProgress): Promise<GenerationProgress> {
    const kept = new Set(await this.deps.works.existingIds(snapshot.images.map((image) => image.workId)));
    return { ...snapshot, images: snapshot.images.filter((image) => kept.has(image.workId)) };
  }

  private async restore(userId: string, generateId: string): Promise<void> {
    const generation = await ownGeneration(this.deps.repo, userId, generateId);
    const job = await this.deps.repo.findJob(generation.current_job_id);
    if (!job) throw notFound('生成任务不存在');
    const works = await this.deps.works.listByJob(job.id);
    const status = job.status as GenerationStatus;
    const finished = status !== 'queued' && status !== 'running';
    await this.deps.board.restore(
      userId,
      job.id,
      {
        generateId,
        status,
        progress: status === 'succeeded' ? 100 : 0,
        queuePosition: 0,
        etaSeconds: 0,
        previewUrl: null,
        message: job.message,
        currentStepId: job.id,
        currentStepNum: job.step_num,
        stepIndex: job.step_index,
        images: works.map((work) => generatedImage(work, this.deps.signer)),
      },
      finished,
    );
  }

  /** A waiting job leaves the line with all its credits back; a running one stops and keeps what it finished. */
  async interrupt(viewer: Viewer, generateId: string): Promise<void> {
    const generation = await ownGeneration(this.deps.repo, viewer.id, generateId);
    const jobId = generation.current_job_id;
    if (await this.deps.queue.cancel(jobId, viewer.id)) return;
    const job = await this.deps.repo.findJob(jobId);
    if (job?.status !== 'queued' && job?.status !== 'running') throw fail('任务已结束，无需中断');
    await this.deps.interrupts.interrupt(jobId);
  }

  async unfinished(viewer: Viewer): Promise<UnfinishedGeneration> {
    const generation = await this.deps.repo.latestUnfinished(viewer.id);
    if (!generation) return null;
    const job = await this.deps.repo.findJob(generation.current_job_id);
    if (!job) return null;
    return {
      generateId: generation.id,
      currentStepId: job.id,
      currentStepNum: job.step_num,
      templateId: generation.template_id,
      stepIndex: job.step_index,
      status: job.status as GenerationStatus,
    };
  }
}
