import { Worker } from 'node:worker_threads';
import type { FormOption } from '@huafang/contracts';
import {
  EngineError,
  type EngineHealth,
  type EngineJob,
  type EngineModel,
  type EngineProgress,
  type EngineResult,
  type InferenceEngine,
  type PreprocessOptions,
  type RunOptions,
} from '../engine.js';
import { BUILTIN_ENGINE_LABEL, BuiltinEngine } from './builtin-engine.js';
import type { WorkerRequest } from './builtin-worker.js';

type WorkerReply =
  | { type: 'progress'; id: number; progress: EngineProgress }
  | { type: 'done'; id: number; value: unknown }
  | { type: 'error'; id: number; message: string };

type Pending = {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: (progress: EngineProgress) => void;
};

/** A request without its id (Omit over each member of the union). */
type Request = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'id'> : never) : never;

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * The worker's entry. Run from TypeScript sources (tsx, vitest), a worker thread does not inherit the TypeScript
 * loader on Node 20, so a one-line ES module loads the worker file through tsx's own import API.
 */
function startWorker(): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const file = new URL(`./builtin-worker${fromSource ? '.ts' : '.js'}`, import.meta.url);
  if (!fromSource) return new Worker(file);
  const loader = `import { tsImport } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};
await tsImport(${JSON.stringify(file.href)}, ${JSON.stringify(import.meta.url)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(loader)}`));
}

/**
 * The built-in demo engine painting in a worker thread: its pixels are CPU work, and on the main thread a
 * 1024² batch would hold up every API request (progress polls above all) between steps. Lists and health
 * are answered here; runs and previews go to the worker.
 */
export class ThreadedBuiltinEngine implements InferenceEngine {
  readonly kind = 'builtin' as const;
  readonly label = BUILTIN_ENGINE_LABEL;
  private readonly local = new BuiltinEngine();
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  listModels(): Promise<EngineModel[]> {
    return this.local.listModels();
  }
  listSamplers(): Promise<string[]> {
    return this.local.listSamplers();
  }
  listControlNetModules(): Promise<FormOption[]> {
    return this.local.listControlNetModules();
  }
  listControlNetModels(): Promise<string[]> {
    return this.local.listControlNetModels();
  }
  health(): Promise<EngineHealth> {
    return this.local.health();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker();
    // An idle worker must not keep the process alive; a running job holds it through its pending promise.
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      if (reply.type === 'progress') {
        const { preview } = reply.progress;
        pending.onProgress?.({ ...reply.progress, ...(preview ? { preview: asBuffer(preview) } : {}) });
        return;
      }
      this.pending.delete(reply.id);
      if (reply.type === 'done') pending.resolve(reply.value);
      else pending.reject(new EngineError(`内置演示引擎出错：${reply.message}`, false));
    });
    const failAll = (reason: string) => {
      if (this.worker === worker) this.worker = null;
      for (const [id, pending] of this.pending) {
        this.pending.delete(id);
        pending.reject(new EngineError(`内置演示引擎意外停止（${reason}）`, true));
      }
    };
    worker.on('error', (err) => failAll(err.message));
    worker.on('exit', (code) => failAll(`退出码 ${code}`));
    this.worker = worker;
    return worker;
  }

  private call<T>(request: Request, options: RunOptions = {}): Promise<T> {
    const id = this.nextId++;
    const worker = this.thread();
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, onProgress: options.onProgress });
      worker.postMessage({ ...request, id });
      const { signal } = options;
      if (!signal) return;
      const abort = () => worker.postMessage({ type: 'abort', id });
      if (signal.aborted) abort();
      else signal.addEventListener('abort', abort, { once: true });
    });
  }

  async run(job: EngineJob, options: RunOptions = {}): Promise<EngineResult> {
    const result = await this.call<EngineResult>({ type: 'run', job }, options);
    return { ...result, images: result.images.map((image) => ({ ...image, png: asBuffer(image.png) })) };
  }

  async preprocess(controlnetModule: string, image: Buffer, options: PreprocessOptions = {}): Promise<Buffer> {
    return asBuffer(await this.call<Uint8Array>({ type: 'preprocess', module: controlnetModule, image, options }));
  }

  /** Stops the worker (server shutdown). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}
