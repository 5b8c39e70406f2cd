import type { FastifyBaseLogger } from 'fastify';
import { nowIso } from '../../platform/ids.js';
import type { UrlSigner } from '../../platform/url-signer.js';
import type { WorkRepository } from '../works/work.repository.js';
import { generatedImage } from '../works/work-files.js';
import type { GenerationRepository, JobRow } from './generation.repository.js';
import { queueItemOf } from './job-payload.js';
import type { QueueItem } from './job-queue.js';
import type { ProgressStore } from './progress-store.js';

/** A job back in line: after a backend failed, for a restart, when its worker died, and after a restart. */
export class JobRequeue {
  constructor(
    private readonly deps: {
      repo: GenerationRepository;
      works: WorkRepository;
      board: ProgressStore;
      signer: UrlSigner;
      log: FastifyBaseLogger;
    },
  ) {}

  async afterFailure(item: QueueItem, reason: string): Promise<void> {
    await this.deps.repo.updateJob(item.jobId, { status: 'queued', backend_id: null, attempts: item.attempts });
    await this.deps.board.requeued(item.generateId, item.jobId, `推理后端出错（${reason}），正在换一台重试…`);
  }

  /** Scale-out: the job's worker died; it waits for another, which resumes it (recover). */
  async moving(jobId: string, message: string): Promise<void> {
    const row = await this.deps.repo.findJob(jobId);
    if (row?.status === 'running' || row?.status === 'queued') {
      await this.deps.board.requeued(row.generation_id, row.id, message);
    }
  }

  async forRestart(item: QueueItem): Promise<void> {
    await this.deps.repo.updateJob(item.jobId, { status: 'queued', backend_id: null, started_at: null });
    await this.deps.repo.updateGeneration(item.generateId, { status: 'queued', updated_at: nowIso() });
    await this.deps.board.requeued(item.generateId, item.jobId, '服务重启中，任务将在重启后继续');
  }

  /**
   * A job a previous process left unfinished waits again. One it left running (a crash) or put back in line with
   * images kept (a shutdown) shows those images and paints only the rest; it is never failed for the restart.
   */
  async recover(row: JobRow): Promise<QueueItem> {
    const item = queueItemOf(row);
    const { board, signer } = this.deps;
    // Scale-out: a worker that lost the job's lock may still be running it and settle it just now. Its run loses
    // the job here (see WorkKeeper.keep); a job it settled first keeps the end its board shows, and the run of
    // this item finds it settled and does nothing.
    const running = row.status === 'running';
    if (running && !(await this.deps.repo.releaseClaim(row.id))) return item;
    // One write with the kept images, so a poll never sees them vanish for a moment.
    const kept = await this.deps.works.listByJob(row.id);
    await board.queued(
      row.user_id,
      { generateId: row.generation_id, jobId: row.id, stepNum: row.step_num, stepIndex: row.step_index },
      kept.map((work) => generatedImage(work, signer)),
    );
    if (running) {
      await this.deps.repo.updateGeneration(row.generation_id, { status: 'queued', updated_at: nowIso() });
      await board.requeued(
        row.generation_id,
        row.id,
        kept.length > 0 ? '服务重启后继续生成其余图片，已完成的图片已保留' : '服务重启后重新排队',
      );
    }
    this.deps.log.info({ jobId: row.id }, 'generation job recovered after restart');
    return item;
  }
}
