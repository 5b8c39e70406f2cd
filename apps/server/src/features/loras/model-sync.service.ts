import type { ModelSyncResult } from '@huafang/contracts';
import type { EngineAsset } from '../../engines/engine.js';
import { SdWebUiError } from '../../engines/sdwebui/sdwebui-client.js';
import { newId, nowIso } from '../../platform/ids.js';
import { HEALTH_TIMEOUT_MS, withTimeout } from '../backends/backend-health.js';
import type { Backend, BackendPool } from '../backends/backend-pool.js';
import type { ModelRepository } from '../models/model.repository.js';
import type { LoraRepository } from './lora.repository.js';

/** Listing LoRAs reads every file's metadata on A1111: slower than a health check. */
const SYNC_TIMEOUT_MS = 6 * HEALTH_TIMEOUT_MS;

/** A file name without folders and extension: a new LoRA's first display name. */
const displayName = (title: string) => (title.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '') || title).slice(0, 40);

/**
 * 同步模型: reads what every enabled backend has (checkpoints, LoRAs, VAEs) and stores it per backend; placement
 * then sends a job only where its checkpoint and LoRAs are. A LoRA seen for the first time is added disabled, for
 * the admin to name and offer; a model without a hash takes the backend's.
 */
export class ModelSyncService {
  constructor(private readonly deps: { loras: LoraRepository; models: ModelRepository; pool: BackendPool }) {}

  async sync(): Promise<ModelSyncResult> {
    const { pool } = this.deps;
    await pool.reload();
    const backends = pool.all().filter((backend) => backend.enabled);
    const results = await Promise.all(backends.map((backend) => this.syncOne(backend)));
    return {
      backends: results.map((result) => result.summary),
      newLoras: results.reduce((sum, result) => sum + result.added, 0),
    };
  }

  private async syncOne(backend: Backend) {
    const summary = { backendId: backend.id, name: backend.name, ok: false, message: null as string | null };
    const counts = { checkpoints: 0, loras: 0, vaes: 0 };
    if (!backend.engine.listAssets) {
      return { summary: { ...summary, ...counts, message: '该类型的后端不支持同步模型' }, added: 0 };
    }
    let assets: EngineAsset[];
    try {
      const listed = await withTimeout(backend.engine.listAssets(), SYNC_TIMEOUT_MS, null);
      if (!listed) return { summary: { ...summary, ...counts, message: '读取模型列表超时' }, added: 0 };
      assets = listed;
    } catch (error) {
      const reason = error instanceof SdWebUiError ? error.detail : error instanceof Error ? error.message : '无法连接';
      return { summary: { ...summary, ...counts, message: `读取模型列表失败：${reason}` }, added: 0 };
    }
    const unique = new Map(assets.map((asset) => [`${asset.kind}\t${asset.title}`, asset]));
    assets = [...unique.values()];
    const { loras, models, pool } = this.deps;
    await loras.replaceAssets(
      backend.id,
      assets.map(({ kind, title, name, hash }) => ({ kind, title, name: name.slice(0, 300), hash })),
      nowIso(),
    );
    const of = (kind: EngineAsset['kind']) => assets.filter((asset) => asset.kind === kind);
    pool.setAssets(backend.id, {
      checkpoints: new Set(of('checkpoint').map((asset) => asset.title)),
      loras: new Set(of('lora').map((asset) => asset.title)),
    });
    let added = 0;
    for (const lora of of('lora')) {
      const now = nowIso();
      const inserted = await loras.insert({
        id: newId(),
        name: displayName(lora.name || lora.title),
        lora_name: lora.title,
        engine: backend.kind,
        style_group: '未分组',
        cover: null,
        description: '',
        family: lora.family ?? '其他',
        trigger_words: '[]',
        default_weight: 0.8,
        min_weight: 0,
        max_weight: 1.5,
        enabled: 0,
        sort: 0,
        access: '{"planIds":[]}',
        hash: lora.hash,
        created_at: now,
        updated_at: now,
      });
      if (inserted) added++;
      else if (lora.hash) await loras.fillHash(backend.kind, lora.title, lora.hash);
    }
    for (const checkpoint of of('checkpoint')) {
      if (checkpoint.hash) await models.fillHash(backend.kind, checkpoint.title, checkpoint.hash);
    }
    return {
      summary: {
        ...summary,
        ok: true,
        checkpoints: of('checkpoint').length,
        loras: of('lora').length,
        vaes: of('vae').length,
      },
      added,
    };
  }
}
