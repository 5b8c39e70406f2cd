import type { EngineAsset } from '../engine.js';
import { guessFamily } from '../family-guess.js';
import { ComfyUiClient } from './comfyui-client.js';
import { ComfyUiEngine, type ComfyUiEngineOptions } from './comfyui-engine.js';
import { nodeCombo } from './comfyui-graph.js';
import { ObjectInfoCache } from './comfyui-object-info.js';

/** A file name without folders and extension, as the admin first sees a synced LoRA. */
const baseName = (file: string) => file.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '') || file;

/**
 * ComfyUI with 同步模型: checkpoints, LoRAs and VAEs from `/object_info` (CheckpointLoaderSimple.ckpt_name,
 * LoraLoader.lora_name, VAELoader.vae_name). ComfyUI reports no hashes. Lists are read fresh for each sync.
 */
export class ComfyUiAssetEngine extends ComfyUiEngine {
  private readonly assetClient: ComfyUiClient;

  constructor(options: ComfyUiEngineOptions) {
    super(options);
    this.assetClient = new ComfyUiClient({
      baseUrl: options.baseUrl,
      token: options.token,
      label: this.label,
      requestTimeoutMs: Math.max(1, options.requestTimeoutMs ?? 30_000),
    });
  }

  async listAssets(): Promise<EngineAsset[]> {
    const info = await new ObjectInfoCache(this.assetClient).get();
    const of = (kind: EngineAsset['kind'], node: string, input: string) =>
      nodeCombo(info, node, input).map(
        (title): EngineAsset => ({
          kind,
          title,
          name: baseName(title),
          hash: null,
          ...(kind === 'vae' ? {} : { family: guessFamily(title) }),
        }),
      );
    return [
      ...of('checkpoint', 'CheckpointLoaderSimple', 'ckpt_name'),
      ...of('lora', 'LoraLoader', 'lora_name'),
      ...of('vae', 'VAELoader', 'vae_name'),
    ];
  }
}
