import { performance } from 'node:perf_hooks';
import type { EngineProgress } from '../engine.js';
import {
  executionErrorMessage,
  type HistoryEntry,
  isRecord,
  type PreviewFrame,
  parsePreviewFrame,
  type Terminal,
} from './comfyui-messages.js';

/**
 * What the socket tells about one prompt. The socket is opened per run with a fresh clientId, so ComfyUI sends
 * our execution events to it alone; events still carry prompt_id and are checked, since a prompt queued without
 * a client_id is broadcast to every socket.
 */
export class PromptWatch {
  promptId: string | null = null;
  started = false;
  terminal: Terminal | null = null;
  entry: HistoryEntry | null = null;
  socketLost = false;
  callbackError: unknown = null;
  private executingOurs = false;
  private buffered: { data: Buffer; binary: boolean }[] = [];
  private readonly stepsDone = new Map<string, number>();
  private readonly samplerMax = new Map<string, number>();
  private lastProgress: EngineProgress | null = null;
  private heldPreview: { bytes: Buffer; mime: PreviewFrame['mime'] } | null = null;
  private firstProgressAt = 0;
  private firstProgressStep = 0;
  private wakeUp: (() => void) | null = null;
  private dirty = false;

  constructor(
    private readonly samplers: ReadonlyMap<string, number>,
    private readonly defaultSteps: number,
    private readonly onProgress?: (progress: EngineProgress) => void,
  ) {}

  setPrompt(promptId: string): void {
    this.promptId = promptId;
    // Events can arrive before POST /prompt answers: they waited here until we knew our id.
    for (const message of this.buffered.splice(0)) this.handle(message.data, message.binary);
  }

  receive(data: Buffer, binary: boolean): void {
    if (this.promptId === null) this.buffered.push({ data, binary });
    else this.handle(data, binary);
  }

  lose(): void {
    this.socketLost = true;
    this.wake();
  }

  finish(terminal: Terminal): void {
    this.terminal ??= terminal;
    this.wake();
  }

  wake(): void {
    this.dirty = true;
    const wakeUp = this.wakeUp;
    this.wakeUp = null;
    wakeUp?.();
  }

  /** Until something happens (an event, the socket closing, an abort) or ms pass. */
  wait(ms: number): Promise<void> {
    if (this.dirty) {
      this.dirty = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        this.dirty = false;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.wakeUp = done;
    });
  }

  private handle(data: Buffer, binary: boolean): void {
    if (binary) {
      const frame = parsePreviewFrame(data);
      if (frame && (frame.promptId ? frame.promptId === this.promptId : this.executingOurs)) this.preview(frame);
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(data.toString('utf8'));
    } catch {
      return;
    }
    if (!isRecord(message) || typeof message.type !== 'string' || !isRecord(message.data)) return;
    const event = message.data;
    const ours = event.prompt_id === this.promptId;
    switch (message.type) {
      case 'execution_start':
        this.executingOurs = ours;
        if (ours) this.started = true;
        break;
      case 'execution_cached':
      case 'executed':
        if (ours) this.started = true;
        break;
      case 'executing':
        if (typeof event.prompt_id === 'string' && !ours) this.executingOurs = false;
        if (!ours) break;
        this.started = true;
        this.executingOurs = event.node !== null;
        if (event.node === null) this.finish({ kind: 'success' });
        break;
      case 'progress': {
        // Older servers leave prompt_id out of progress; then it is ours while our prompt runs.
        const mine = event.prompt_id === undefined ? this.executingOurs : ours;
        if (mine && typeof event.value === 'number' && typeof event.max === 'number') {
          this.started = true;
          this.progress(typeof event.node === 'string' ? event.node : undefined, event.value, event.max);
        }
        break;
      }
      case 'execution_success':
        if (ours) this.finish({ kind: 'success' });
        break;
      case 'execution_interrupted':
        if (ours) this.finish({ kind: 'interrupted' });
        break;
      case 'execution_error':
        if (ours) this.finish({ kind: 'error', message: executionErrorMessage(event) });
        break;
    }
    this.wake();
  }

  private progress(node: string | undefined, value: number, max: number): void {
    // Only the samplers count: other nodes (preprocessors, tiled decodes) report progress of their own.
    const sampler = node ?? (this.samplers.size === 1 ? [...this.samplers.keys()][0] : undefined);
    if (sampler === undefined || !this.samplers.has(sampler) || max <= 0) return;
    this.samplerMax.set(sampler, max);
    this.stepsDone.set(sampler, Math.max(this.stepsDone.get(sampler) ?? 0, Math.min(value, max)));
    this.emit(this.samplers.get(sampler) ?? 0);
  }

  private preview(frame: PreviewFrame): void {
    const preview = { bytes: frame.bytes, mime: frame.mime };
    if (!this.lastProgress) {
      this.heldPreview = preview;
      return;
    }
    // ComfyUI sends a step's preview right after its progress event: the same step again, now with the picture.
    this.deliver({ ...this.lastProgress, preview: preview.bytes, previewMime: preview.mime });
  }

  private emit(imageIndex: number): void {
    const perSampler = [...this.samplerMax.values()].at(-1) ?? this.defaultSteps;
    let totalSteps = 0;
    for (const node of this.samplers.keys()) totalSteps += this.samplerMax.get(node) ?? perSampler;
    let done = 0;
    for (const steps of this.stepsDone.values()) done += steps;
    const last = this.lastProgress;
    const step = Math.max(last?.step ?? 0, done);
    const percent = Math.min(100, Math.max(last?.percent ?? 0, Math.round((step / totalSteps) * 1000) / 10));
    const now = performance.now();
    if (!last) {
      this.firstProgressAt = now;
      this.firstProgressStep = step;
    }
    const rate = (step - this.firstProgressStep) / Math.max(1, now - this.firstProgressAt);
    const etaSeconds = rate > 0 ? Math.round(((totalSteps - step) / rate / 1000) * 10) / 10 : 0;
    const progress: EngineProgress = { step, totalSteps, percent, etaSeconds, imageIndex };
    this.lastProgress = progress;
    const held = this.heldPreview;
    this.heldPreview = null;
    this.deliver(held ? { ...progress, preview: held.bytes, previewMime: held.mime } : progress);
  }

  /** Final 100 % for jobs whose samplers reported less (or, like upscale, nothing). */
  complete(): void {
    if (this.lastProgress?.percent === 100 || !this.onProgress) return;
    const totalSteps = this.lastProgress?.totalSteps ?? Math.max(1, this.samplers.size * this.defaultSteps);
    this.deliver({
      step: totalSteps,
      totalSteps,
      percent: 100,
      etaSeconds: 0,
      imageIndex: Math.max(0, this.samplers.size - 1),
    });
  }

  private deliver(progress: EngineProgress): void {
    if (!this.onProgress || this.callbackError) return;
    try {
      this.onProgress(progress);
    } catch (error) {
      // A throwing listener must not kill the socket handler; the run fails with its error instead.
      this.callbackError = error ?? new Error('onProgress failed');
      this.wake();
    }
  }
}
