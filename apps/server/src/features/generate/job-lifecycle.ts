import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../platform/db/database.js';
import type { Storage } from '../../platform/storage/storage.js';
import type { UrlSigner } from '../../platform/url-signer.js';
import type { AuditRecorder } from '../audit/audit-recorder.js';
import type { Backend, BackendPool } from '../backends/backend-pool.js';
import type { ComplianceService } from '../compliance/compliance.service.js';
import type { CreditService } from '../credits/credit.service.js';
import type { FileService } from '../files/file.service.js';
import type { WebhookEvents } from '../webhooks/webhook-events.js';
import type { WorkRepository } from '../works/work.repository.js';
import type { GenerationRepository, JobRow } from './generation.repository.js';
import { JobInputs } from './job-inputs.js';
import type { JobOutcome, JobRun, QueueItem } from './job-queue.js';
import { JobRequeue } from './job-requeue.js';
import { JobRunner } from './job-runner.js';
import { JobSettlement } from './job-settlement.js';
import type { ProgressStore } from './progress-store.js';
import { SettledJobAudit } from './settled-job-audit.js';
import { WorkKeeper } from './work-keeper.js';

/**
 * What a queue (in-process or BullMQ) asks of a generation job's life; the queues know only this. A job runs on
 * the backend the queue gave it, and is settled, put back in line or recovered as the queue moves it.
 */
export interface JobLifecycle {
  /** Runs the job on `backend` and settles it; `run.signal` aborts with INTERRUPT or SHUTDOWN. */
  run(item: QueueItem, backend: Backend, run: JobRun): Promise<JobOutcome>;
  /** A job a previous process (or a worker that died) left unfinished, back in line with the images it kept. */
  recover(row: JobRow): Promise<QueueItem>;
  /** Settles a job taken out of line as interrupted; false when it is not in one of `settles` (it started). */
  cancelWaiting(jobId: string, settles?: readonly string[]): Promise<boolean>;
  /** The process stops: the job waits in the database for the next start. */
  requeueForRestart(item: QueueItem): Promise<void>;
  /** Scale-out: the job's worker died; the user sees `message` while it waits for another. */
  moving(jobId: string, message: string): Promise<void>;
  /**
   * Stops the settles still being retried (the queue has stopped; their jobs continue at the next start) and waits
   * for the marked copies being painted.
   */
  close(): Promise<void>;
}

/** How long a stopping process waits for the marked copies still being painted (a few seconds each at most). */
const MARKED_COPY_WAIT_MS = 10_000;

/** The generation job's lifecycle: inputs, run, works, settlement, requeue and recovery, wired once. */
export function createJobLifecycle(deps: {
  db: Database;
  repo: GenerationRepository;
  works: WorkRepository;
  files: FileService;
  storage: Storage;
  credits: CreditService;
  compliance: ComplianceService;
  board: ProgressStore;
  pool: BackendPool;
  webhooks: WebhookEvents;
  maxAttempts: number;
  signer: UrlSigner;
  log: FastifyBaseLogger;
  audit: AuditRecorder;
}): JobLifecycle {
  const { db, repo, works, storage, board, log } = deps;
  const keeper = new WorkKeeper({ db, repo, works, storage, compliance: deps.compliance, board, signer: deps.signer });
  const settlement = new JobSettlement({
    db,
    repo,
    works,
    credits: deps.credits,
    board,
    webhooks: deps.webhooks,
    audit: new SettledJobAudit({ credits: deps.credits, keeper, audit: deps.audit, log }),
    log,
  });
  const requeue = new JobRequeue({ repo, works, board, signer: deps.signer, log });
  const runner = new JobRunner({
    repo,
    works,
    board,
    pool: deps.pool,
    maxAttempts: deps.maxAttempts,
    log,
    inputs: new JobInputs({ files: deps.files, works, storage }),
    keeper,
    settlement,
    requeue,
  });
  return {
    run: (item, backend, run) => runner.run(item, backend, run),
    recover: (row) => requeue.recover(row),
    cancelWaiting: (jobId, settles) => settlement.cancelWaiting(jobId, settles),
    requeueForRestart: (item) => requeue.forRestart(item),
    moving: (jobId, message) => requeue.moving(jobId, message),
    close: async () => {
      settlement.close();
      await keeper.idle(MARKED_COPY_WAIT_MS);
    },
  };
}
