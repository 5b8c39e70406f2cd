import { threadId } from 'node:worker_threads';
import type { EngineJob, EngineResult, InferenceEngine, RunOptions } from '../../../src/engines/engine.js';

/**
 * A local engine other than the built-in one, for the ThreadedEngine tests: it reports the thread it ran on,
 * fails on a prompt of `fail`, and ends its thread on a prompt of `exit`.
 */
export class ThreadEchoEngine implements InferenceEngine {
  readonly kind = 'builtin' as const;
  readonly label = '回声引擎';

  async listModels() {
    return [{ title: 'echo', name: '回声' }];
  }
  async listSamplers() {
    return ['Euler'];
  }
  async listControlNetModules() {
    return [];
  }
  async listControlNetModels() {
    return [];
  }
  async health() {
    return { ok: true, message: `线程 ${threadId}`, busy: false };
  }

  async run(job: EngineJob, options: RunOptions = {}): Promise<EngineResult> {
    if (job.prompt === 'fail') throw new Error('提示词不可用');
    if (job.prompt === 'exit') process.exit(3);
    for (let step = 1; step <= job.steps; step++) {
      if (options.signal?.aborted) return this.result(job, true);
      options.onProgress?.({
        step,
        totalSteps: job.steps,
        percent: Math.round((step / job.steps) * 100),
        etaSeconds: 0,
        imageIndex: 0,
        preview: Buffer.from([step]),
      });
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return this.result(job, false);
  }

  async preprocess(module: string, image: Buffer): Promise<Buffer> {
    return Buffer.concat([Buffer.from(`${module}@${threadId}:`), image]);
  }

  private result(job: EngineJob, interrupted: boolean): EngineResult {
    const image = {
      png: Buffer.from(`thread ${threadId}`),
      seed: job.seed,
      width: job.width,
      height: job.height,
      infotext: `thread ${threadId}`,
      interrupted,
    };
    return { images: [image], seed: job.seed, interrupted };
  }
}
