import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import WebSocket, { type RawData } from 'ws';
import { EngineError } from '../engine.js';
import type { ComfyUiClient } from './comfyui-client.js';
import type { ComfyGraph } from './comfyui-graph.js';
import {
  type HistoryEntry,
  isRecord,
  parseHistoryEntry,
  parseQueue,
  type QueueState,
  refusalMessage,
} from './comfyui-messages.js';
import type { PromptWatch } from './comfyui-prompt-watch.js';

export type PromptRunnerOptions = {
  client: ComfyUiClient;
  /** The socket handshake, which should be quick. */
  handshakeTimeoutMs: number;
  /** A whole job, only named here in the timeout failure: the caller sets the deadline. */
  jobTimeoutMs: number;
  /** How often /history is polled once the socket is gone. */
  pollIntervalMs: number;
};

/** After an interrupt, how long we wait for the server to confirm it before returning what we have. */
const ABORT_GRACE_MS = 10_000;
/** ComfyUI sends execution_success before it writes history: how long the result may take to appear. */
const HISTORY_WAIT_MS = 15_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const toBuffer = (data: RawData): Buffer =>
  Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);

export type Execution = { interrupted: boolean; entry: HistoryEntry | null };
type CancelState = 'interrupting' | 'removed' | 'finished';

/**
 * Runs one graph on the server: queues it, follows it over the WebSocket (progress, previews, end) with /history
 * and /queue as the fallback, stops it on abort or timeout, and answers with its history entry.
 */
export class ComfyUiPromptRunner {
  private readonly client: ComfyUiClient;

  constructor(private readonly options: PromptRunnerOptions) {
    this.client = options.client;
  }

  /**
   * `extraPngInfo` goes into `extra_data.extra_pnginfo`: SaveImage writes each key as a PNG text chunk (our
   * `workflow`, so ComfyUI reopens the work).
   */
  async execute(
    graph: ComfyGraph,
    watch: PromptWatch,
    deadline: number,
    signal?: AbortSignal,
    extraPngInfo?: Record<string, unknown>,
  ): Promise<Execution> {
    const clientId = randomUUID();
    // The socket first, so no event of our prompt can be missed.
    const socket = await this.openSocket(clientId, watch);
    if (!socket) watch.socketLost = true;
    const onAbort = () => watch.wake();
    signal?.addEventListener('abort', onAbort);
    try {
      const promptId = await this.queuePrompt(graph, clientId, extraPngInfo);
      watch.setPrompt(promptId);
      return await this.follow(promptId, watch, deadline, signal);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      socket?.removeAllListeners('close');
      socket?.terminate();
    }
  }

  private openSocket(clientId: string, watch: PromptWatch): Promise<WebSocket | null> {
    return new Promise((resolve) => {
      let opened = false;
      const socket = new WebSocket(this.client.socketUrl(clientId), {
        headers: this.client.headers(),
        followRedirects: false,
        handshakeTimeout: this.options.handshakeTimeoutMs,
      });
      socket.on('message', (data, binary) => watch.receive(toBuffer(data), binary));
      // A failed handshake or a broken socket always ends in 'close'; without a socket we poll /history.
      socket.on('error', () => {});
      socket.on('close', () => {
        if (opened) watch.lose();
        else resolve(null);
      });
      socket.once('open', () => {
        opened = true;
        resolve(socket);
      });
    });
  }

  private async queuePrompt(
    graph: ComfyGraph,
    clientId: string,
    extraPngInfo?: Record<string, unknown>,
  ): Promise<string> {
    const json = {
      prompt: graph,
      client_id: clientId,
      ...(extraPngInfo ? { extra_data: { extra_pnginfo: extraPngInfo } } : {}),
    };
    const reply = await this.client.request('POST', '/prompt', { json });
    let body: unknown = null;
    try {
      body = this.client.parse(reply);
    } catch (error) {
      if (reply.status < 300) throw error;
    }
    if (reply.status < 300 && isRecord(body) && typeof body.prompt_id === 'string') return body.prompt_id;
    if (reply.status >= 400) throw new EngineError(refusalMessage(body), false);
    throw this.client.unavailable('提交任务后没有返回任务编号');
  }

  private async historyEntry(promptId: string): Promise<HistoryEntry | null> {
    return parseHistoryEntry(await this.client.getJson(`/history/${encodeURIComponent(promptId)}`), promptId);
  }

  private async queueState(): Promise<QueueState> {
    return parseQueue(await this.client.getJson('/queue'));
  }

  private async waitForHistory(promptId: string, until: number): Promise<HistoryEntry | null> {
    for (;;) {
      const entry = await this.historyEntry(promptId);
      if (entry || performance.now() >= until) return entry;
      await sleep(Math.min(this.options.pollIntervalMs, 100));
    }
  }

  /**
   * Interrupts the running prompt, which must be ours. ComfyUI v0.3.x ignores `prompt_id` and stops whatever
   * runs, so the caller has just seen ours running in /queue; newer servers honour `prompt_id`, which closes the
   * short gap between that look and this call.
   */
  private async interrupt(promptId: string): Promise<CancelState> {
    await this.client.postJson('/interrupt', { prompt_id: promptId });
    return 'interrupting';
  }

  /**
   * Stops our prompt, never another's: /queue says where it is. Running: interrupt it. Waiting: take it off the
   * queue. Neither: it has ended (history has it) or is gone. While another client's prompt runs, ours is never
   * interrupted, since on a shared server a bare interrupt would stop theirs.
   */
  private async cancel(promptId: string, watch: PromptWatch): Promise<CancelState> {
    const queue = await this.queueState();
    if (queue.running.includes(promptId)) return this.interrupt(promptId);
    if (queue.pending.includes(promptId)) {
      await this.client.postJson('/queue', { delete: [promptId] });
      const after = await this.queueState();
      // It started between our look and the delete.
      if (after.running.includes(promptId)) return this.interrupt(promptId);
      if (after.pending.includes(promptId)) return 'interrupting';
    }
    const entry = await this.historyEntry(promptId);
    // ComfyUI writes history before a prompt leaves the running list: in neither, without history, it is gone.
    if (!entry) return 'removed';
    watch.entry = entry;
    watch.finish(entry.terminal);
    return 'finished';
  }

  private async follow(
    promptId: string,
    watch: PromptWatch,
    deadline: number,
    signal?: AbortSignal,
  ): Promise<Execution> {
    let cancelState: CancelState | null = null;
    let graceUntil = Number.POSITIVE_INFINITY;
    // With a live socket, history is still looked at now and then, in case the socket went quiet unnoticed.
    const checkEvery = Math.max(this.options.pollIntervalMs * 10, 5_000);
    let nextCheck = performance.now() + checkEvery;
    let failures = 0;
    let missing = 0;

    while (!watch.terminal) {
      if (watch.callbackError) throw watch.callbackError;
      const now = performance.now();
      if (now >= deadline) {
        await this.cancel(promptId, watch).catch(() => null);
        throw this.client.unavailable(`任务超时（${Math.round(this.options.jobTimeoutMs / 1000)} 秒）`);
      }
      if (signal?.aborted && !cancelState) {
        // Stopping is best effort: if the server cannot be reached, the user still gets the stop.
        cancelState = await this.cancel(promptId, watch).catch(() => 'removed' as const);
        if (cancelState === 'removed') return { interrupted: true, entry: null };
        graceUntil = performance.now() + ABORT_GRACE_MS;
        continue;
      }
      if (now >= graceUntil) break;

      const polling = watch.socketLost;
      if (polling || now >= nextCheck) {
        nextCheck = now + checkEvery;
        try {
          const entry = await this.historyEntry(promptId);
          if (entry) {
            watch.entry = entry;
            watch.finish(entry.terminal);
            continue;
          }
          if (polling) {
            const queue = await this.queueState();
            if (queue.running.includes(promptId)) watch.started = true;
            const known = queue.running.includes(promptId) || queue.pending.includes(promptId);
            missing = known ? 0 : missing + 1;
          }
          failures = 0;
        } catch (error) {
          if (polling && ++failures >= 3) throw this.client.unavailable('连接中断', error);
        }
        // Gone from the queue and never in history (twice, as the two are read one after the other): lost.
        if (missing >= 2) throw this.client.unavailable('连接中断，任务已丢失');
      }
      const wakeAt = Math.min(deadline, graceUntil, polling ? now + this.options.pollIntervalMs : nextCheck);
      await watch.wait(wakeAt - performance.now());
    }

    if (watch.callbackError) throw watch.callbackError;
    const terminal = watch.terminal;
    if (terminal?.kind === 'error') throw new EngineError(terminal.message, false);
    if (terminal?.kind === 'success') {
      const until = Math.min(deadline, performance.now() + HISTORY_WAIT_MS);
      const entry = watch.entry ?? (await this.waitForHistory(promptId, until));
      if (!entry) throw this.client.unavailable('任务已完成但取不到结果');
      return { interrupted: false, entry };
    }
    // Interrupted, or the server never confirmed our interrupt: whatever history holds (finished images).
    const until = performance.now() + (terminal ? 3_000 : 0);
    const entry = watch.entry ?? (await this.waitForHistory(promptId, until).catch(() => null));
    return { interrupted: true, entry };
  }
}
