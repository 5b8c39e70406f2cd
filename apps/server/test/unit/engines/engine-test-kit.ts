import { expect } from 'vitest';
import { EngineError, type EngineJob } from '../../../src/engines/engine.js';

/** What the engine tests share: a small job to run, and the error a failed call gives. */

/** The EngineError a call of an engine rejected with; the test fails when it resolved or threw anything else. */
export async function engineError(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

/** A txt2img job of one 64×64 image, seed 1234, DPM++ 2M Karras at CFG 7; each engine's tests set the rest. */
export const engineJob = (
  job: Pick<EngineJob, 'prompt' | 'negativePrompt' | 'checkpoint' | 'steps'> & Partial<EngineJob>,
): EngineJob => ({
  mode: 'txt2img',
  sampler: 'DPM++ 2M Karras',
  cfgScale: 7,
  width: 64,
  height: 64,
  seed: 1234,
  batchSize: 1,
  ...job,
});
