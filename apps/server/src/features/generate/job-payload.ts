import type { GenerateMode } from '@huafang/contracts';
import type { EngineLora } from '../../engines/engine.js';
import type { AuditOrigin } from '../audit/audit-recorder.js';
import type { JobRow } from './generation.repository.js';
import type { QueueItem } from './job-queue.js';
import type { CheckedParameters } from './parameter-check.js';

/** Where a job's input image comes from: the user's upload, or a result of the previous step (next-draw). */
export type ImageSource = { kind: 'file'; id: string } | { kind: 'work'; id: string };

/** Everything a job needs to run, fixed at submit and stored with it (generation_jobs.payload). */
export type JobPayload = {
  templateId: string | null;
  templateName: string;
  templateStepId: string | null;
  stepIndex: number;
  mode: GenerateMode;
  /** What the engine reads: in English for a model that reads only English. */
  prompt: string;
  negativePrompt: string;
  /** The prompts as written, when the engine reads them translated (absent in jobs from before translation). */
  sourcePrompt?: string | null;
  sourceNegativePrompt?: string | null;
  parameters: CheckedParameters;
  /** The engine kind and checkpoint the chosen model resolves to. */
  engineKind: string;
  checkpoint: string;
  /** The LoRAs resolved at submit (backend name, weight, hash), so retries and resumes use the same ones. */
  loras?: EngineLora[];
  initImage: ImageSource | null;
  /** The submit's address and API key, for the audit entries of the job's end (absent in jobs from before them). */
  origin?: AuditOrigin;
};

/**
 * Credits a run costs: 1 per image up to 1024×1024 pixels, one more per further megapixel started; an upscale
 * counts its output size. Steps do not count, so a user can tune quality without thinking about price.
 */
export function costOf(parameters: CheckedParameters, mode: GenerateMode): number {
  const scale = mode === 'upscale' ? parameters.upscaleFactor : 1;
  const pixels = parameters.width * parameters.height * scale * scale;
  const perImage = Math.max(1, Math.ceil(pixels / (1024 * 1024)));
  return perImage * parameters.batchSize;
}

/** Work units of a job for the ETA: sampling steps × images × size relative to 512². */
export function workUnits(parameters: CheckedParameters): number {
  return Math.max(1, parameters.steps * parameters.batchSize * ((parameters.width * parameters.height) / (512 * 512)));
}

/** A job as a queue carries it, from its row (the durable copy). */
export function queueItemOf(row: Pick<JobRow, 'id' | 'generation_id' | 'user_id' | 'payload' | 'attempts'>): QueueItem {
  const payload = JSON.parse(row.payload) as JobPayload;
  return {
    jobId: row.id,
    generateId: row.generation_id,
    userId: row.user_id,
    engineKind: payload.engineKind,
    checkpoint: payload.checkpoint,
    loras: (payload.loras ?? []).map((lora) => lora.name),
    units: workUnits(payload.parameters),
    attempts: row.attempts,
    tried: new Set(),
  };
}
