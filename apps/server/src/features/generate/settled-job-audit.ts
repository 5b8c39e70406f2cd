import type { GenerationStatus } from '@huafang/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { type AuditRecorder, NO_ORIGIN } from '../audit/audit-recorder.js';
import type { CreditChange, CreditService } from '../credits/credit.service.js';
import type { JobRow } from './generation.repository.js';
import type { JobPayload } from './job-payload.js';
import type { WorkKeeper } from './work-keeper.js';

/** What a settle knows of the run for the audit trail: the backend, and the hash of each original this run stored. */
export type RunOutputs = { backend?: string; hashes?: ReadonlyMap<string, string> };

/** A settled job's entries in the audit trail: its end, and the credits it gave back. */
export class SettledJobAudit {
  constructor(
    private readonly deps: {
      credits: CreditService;
      keeper: WorkKeeper;
      audit: AuditRecorder;
      log: FastifyBaseLogger;
    },
  ) {}

  /**
   * The job's end (generation.succeeded, failed or interrupted) with what it asked and what it made: each work's
   * id (its AIGC ProduceID) and the SHA-256 of its stored original; and the refund, if any. Never throws: the
   * trail must not undo a settle.
   */
  async record(
    row: JobRow,
    status: GenerationStatus,
    produced: number,
    message: string | null,
    refunded: CreditChange | null,
    { backend, hashes = new Map() }: RunOutputs,
  ): Promise<void> {
    try {
      const payload = JSON.parse(row.payload) as JobPayload;
      const origin = payload.origin ?? NO_ORIGIN;
      this.deps.credits.recorded(refunded, origin);
      const outputs =
        hashes.size >= produced
          ? [...hashes].map(([produceId, hash]) => ({ produceId, sha256: hash }))
          : await this.deps.keeper.hashes(row.id, hashes);
      this.deps.audit.record({
        action:
          status === 'succeeded'
            ? 'generation.succeeded'
            : status === 'interrupted'
              ? 'generation.interrupted'
              : 'generation.failed',
        userId: row.user_id,
        origin,
        target: { type: 'generation', id: row.generation_id },
        detail: {
          jobId: row.id,
          prompt: payload.prompt,
          negativePrompt: payload.negativePrompt,
          modelId: payload.parameters.modelId,
          checkpoint: payload.checkpoint,
          engine: payload.engineKind,
          backend: backend ?? null,
          imageCount: row.image_count,
          produced,
          outputs,
          ...(message ? { message } : {}),
        },
      });
    } catch (err) {
      this.deps.log.error({ err, jobId: row.id }, 'audit entry of a settled job not recorded');
    }
  }
}
