import { parentPort } from 'node:worker_threads';
import type { EngineJob, PreprocessOptions } from '../engine.js';
import { BuiltinEngine } from './builtin-engine.js';

/** Messages from the main thread (see threaded-builtin-engine.ts). */
export type WorkerRequest =
  | { type: 'run'; id: number; job: EngineJob }
  | { type: 'preprocess'; id: number; module: string; image: Uint8Array; options: PreprocessOptions }
  | { type: 'abort'; id: number };

const port = parentPort;
if (!port) throw new Error('builtin-worker must run in a worker thread');

const engine = new BuiltinEngine();
const controllers = new Map<number, AbortController>();

/** Buffers arrive as plain Uint8Arrays after the structured clone. */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function revive(job: EngineJob): EngineJob {
  return {
    ...job,
    ...(job.initImage ? { initImage: asBuffer(job.initImage) } : {}),
    ...(job.mask ? { mask: asBuffer(job.mask) } : {}),
    ...(job.controlNets
      ? { controlNets: job.controlNets.map((unit) => ({ ...unit, image: asBuffer(unit.image) })) }
      : {}),
  };
}

port.on('message', async (message: WorkerRequest) => {
  if (message.type === 'abort') {
    controllers.get(message.id)?.abort();
    return;
  }
  const { id } = message;
  try {
    if (message.type === 'preprocess') {
      const png = await engine.preprocess(message.module, asBuffer(message.image), message.options);
      port.postMessage({ type: 'done', id, value: png });
      return;
    }
    const controller = new AbortController();
    controllers.set(id, controller);
    const result = await engine.run(revive(message.job), {
      signal: controller.signal,
      onProgress: (progress) => port.postMessage({ type: 'progress', id, progress }),
    });
    port.postMessage({ type: 'done', id, value: result });
  } catch (err) {
    port.postMessage({ type: 'error', id, message: err instanceof Error ? err.message : String(err) });
  } finally {
    controllers.delete(id);
  }
});
