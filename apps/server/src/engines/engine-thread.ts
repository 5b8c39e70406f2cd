import { parentPort } from 'node:worker_threads';
import type { EngineJob, EngineProgress, InferenceEngine, PreprocessOptions } from './engine.js';

/** A message from a ThreadedEngine to its thread (see threaded-engine.ts). */
export type EngineThreadRequest =
  | { type: 'run'; id: number; job: EngineJob }
  | { type: 'preprocess'; id: number; module: string; image: Uint8Array; options: PreprocessOptions }
  | { type: 'abort'; id: number };

/** A message from the thread back; Buffers arrive as plain Uint8Arrays after the structured clone. */
export type EngineThreadReply =
  | { type: 'progress'; id: number; progress: EngineProgress }
  | { type: 'done'; id: number; value: unknown }
  | { type: 'error'; id: number; message: string };

export const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

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

/**
 * Serves a local engine's runs and previews inside a worker thread. A local engine's thread entry is a module that
 * calls this with the engine; a ThreadedEngine on the main thread starts it and talks to it.
 */
export function serveEngineThread(engine: InferenceEngine): void {
  const port = parentPort;
  if (!port) throw new Error('serveEngineThread must run in a worker thread');
  const reply = (message: EngineThreadReply) => port.postMessage(message);
  const controllers = new Map<number, AbortController>();

  port.on('message', async (message: EngineThreadRequest) => {
    if (message.type === 'abort') {
      controllers.get(message.id)?.abort();
      return;
    }
    const { id } = message;
    try {
      if (message.type === 'preprocess') {
        reply({
          type: 'done',
          id,
          value: await engine.preprocess(message.module, asBuffer(message.image), message.options),
        });
        return;
      }
      const controller = new AbortController();
      controllers.set(id, controller);
      const result = await engine.run(revive(message.job), {
        signal: controller.signal,
        onProgress: (progress) => reply({ type: 'progress', id, progress }),
      });
      reply({ type: 'done', id, value: result });
    } catch (err) {
      reply({ type: 'error', id, message: err instanceof Error ? err.message : String(err) });
    } finally {
      controllers.delete(id);
    }
  });
}
