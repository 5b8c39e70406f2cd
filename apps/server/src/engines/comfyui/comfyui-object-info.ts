import { performance } from 'node:perf_hooks';
import type { ComfyUiClient } from './comfyui-client.js';
import { type ComfyObjectInfo, parseObjectInfo } from './comfyui-graph.js';

/** /object_info is large on servers with many custom nodes: the lists share one fetch for a while. */
const OBJECT_INFO_TTL_MS = 30_000;

/** The server's /object_info: every node and its inputs, where checkpoints, samplers and preprocessors are listed. */
export class ObjectInfoCache {
  private cached: { at: number; value: Promise<ComfyObjectInfo> } | null = null;

  constructor(private readonly client: ComfyUiClient) {}

  get(): Promise<ComfyObjectInfo> {
    const now = performance.now();
    if (this.cached && now - this.cached.at < OBJECT_INFO_TTL_MS) return this.cached.value;
    const value = this.client.getJson('/object_info').then(parseObjectInfo);
    const entry = { at: now, value };
    this.cached = entry;
    // A failure is not remembered: the next call asks again.
    value.catch(() => {
      if (this.cached === entry) this.cached = null;
    });
    return value;
  }
}
