import { Worker } from 'node:worker_threads';
import type { FormOption } from '@huafang/contracts';
import {
  type EngineAsset,
  EngineError,
  type EngineHealth,
  type EngineJob,
  type EngineKind,
  type EngineModel,
  type EngineResult,
  type InferenceEngine,
  type PreprocessOptions,
  type RunOptions,
} from './engine.js';
import { asBuffer, type EngineThreadReply, type EngineThreadRequest } from './engine-thread.js';

type Pending = {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: RunOptions['onProgress'];
};

/** A request without its id (Omit over each member of the union). */
type Request = EngineThreadRequest extends infer R ? (R extends EngineThreadRequest ? Omit<R, 'id'> : never) : never;

/**
 * The thread entry module `name` (without extension) beside the module at `base` (its `import.meta.url`): the
 * TypeScript source when running from sources (tsx, vitest), the compiled file otherwise.
 */
export function engineThreadEntry(base: string, name: string): URL {
  return new URL(`${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

/**
 * Starts a thread on `entry`. From TypeScript sources a worker thread does not inherit the TypeScript loader on
 * Node 20, so a one-line ES module loads the entry through tsx's own import API.
 */
function startThread(entry: URL): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry);
  const loader = `import { tsImport } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};
await tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(import.meta.url)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(loader)}`));
}

/**
 * A local engine painting in a worker thread: its pixels are CPU work, and on the main thread a 1024² batch would
 * hold up every API request (progress polls above all) between steps. Lists and health are answered by `local` on
 * this thread; runs and previews go to the thread started on `entry`, a module that serves the same engine there
 * (see serveEngineThread). Any local engine runs this way.
 */
export class ThreadedEngine implements InferenceEngine {
  readonly kind: EngineKind;
  readonly label: string;
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(
    private readonly local: InferenceEngine,
    private readonly entry: URL,
  ) {
    this.kind = local.kind;
    this.label = local.label;
  }

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
  async listAssets(): Promise<EngineAsset[]> {
    return (await this.local.listAssets?.()) ?? [];
  }
  health(): Promise<EngineHealth> {
    return this.local.health();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = startThread(this.entry);
    // An idle thread must not keep the process alive; a running job holds it through its pending promise.
    worker.unref();
    worker.on('message', (reply: EngineThreadReply) => {
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      if (reply.type === 'progress') {
        const { preview } = reply.progress;
        pending.onProgress?.({ ...reply.progress, ...(preview ? { preview: asBuffer(preview) } : {}) });
        return;
      }
      this.pending.delete(reply.id);
      if (reply.type === 'done') pending.resolve(reply.value);
      else pending.reject(new EngineError(`${this.label}出错：${reply.message}`, false));
    });
    const failAll = (reason: string) => {
      if (this.worker === worker) this.worker = null;
      for (const [id, pending] of this.pending) {
        this.pending.delete(id);
        pending.reject(new EngineError(`${this.label}意外停止（${reason}）`, true));
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

  /** Stops the thread (server shutdown). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}
