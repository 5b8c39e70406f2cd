import type { BackendItem, BackendKind, backendBodySchema } from '@huafang/contracts';
import type { z } from 'zod';
import type { EngineModel } from '../../engines/engine.js';
import { SdWebUiError } from '../../engines/sdwebui/sdwebui-client.js';
import { fail, notFound } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import type { BackendRepository, BackendRow } from './backend.repository.js';
import { ADDRESS_REFUSED } from './backend-address.js';
import { HEALTH_TIMEOUT_MS, withTimeout } from './backend-health.js';
import type { Backend, BackendPool } from './backend-pool.js';

type Body = z.output<typeof backendBodySchema>;

/** 推理后端 in the admin area: register, change, check and remove the servers the pool drives. */
export class BackendAdminService {
  constructor(
    private readonly repo: BackendRepository,
    private readonly pool: BackendPool,
  ) {}

  list(): Promise<BackendItem[]> {
    return this.pool.list();
  }

  private async item(id: string): Promise<BackendItem> {
    const found = (await this.list()).find((b) => b.id === id);
    if (!found) throw notFound('推理后端不存在');
    return found;
  }

  private allowedAddress(baseUrl: string): string {
    if (!this.pool.allows(baseUrl)) throw fail(`后端${ADDRESS_REFUSED}，请联系运维人员`);
    return baseUrl.replace(/\/+$/, '');
  }

  async create(body: Body): Promise<BackendItem> {
    const baseUrl = this.allowedAddress(body.baseUrl);
    const now = nowIso();
    const row: BackendRow = {
      id: newId(),
      name: body.name,
      kind: body.kind,
      base_url: baseUrl,
      username: body.username || null,
      secret: body.secret || null,
      models: JSON.stringify(body.models),
      enabled: body.enabled ? 1 : 0,
      created_at: now,
      updated_at: now,
    };
    await this.repo.insert(row);
    const backend = this.pool.put(row);
    if (backend.enabled) await this.pool.check(backend);
    return this.item(row.id);
  }

  private editable(id: string): Backend {
    const backend = this.pool.get(id);
    if (!backend) throw notFound('推理后端不存在');
    if (backend.builtin) throw fail('内置演示引擎不能修改或删除');
    return backend;
  }

  async update(id: string, body: Body): Promise<BackendItem> {
    this.editable(id);
    const baseUrl = this.allowedAddress(body.baseUrl);
    const stored = await this.repo.find(id);
    if (!stored) throw notFound('推理后端不存在');
    const row: BackendRow = {
      ...stored,
      name: body.name,
      kind: body.kind,
      base_url: baseUrl,
      username: body.username || null,
      // Absent keeps the stored secret; an empty string clears it.
      secret: body.secret === undefined || body.secret === null ? stored.secret : body.secret || null,
      models: JSON.stringify(body.models),
      enabled: body.enabled ? 1 : 0,
      updated_at: nowIso(),
    };
    await this.repo.update(id, row);
    const backend = this.pool.put(row);
    if (backend.enabled) await this.pool.check(backend);
    return this.item(id);
  }

  async remove(id: string): Promise<void> {
    this.editable(id);
    if ((await this.item(id)).busy) throw fail('该后端正在运行任务，请稍后再删除或先停用');
    await this.repo.delete(id);
    this.pool.delete(id);
  }

  /**
   * The checkpoints a backend reports now (A1111 sd-models, ComfyUI CheckpointLoaderSimple), for 从后端导入.
   * An unreachable backend is a business failure naming it, so the admin sees why the list is empty.
   */
  async checkpoints(id: string): Promise<{ kind: BackendKind; models: EngineModel[] }> {
    const backend = this.pool.get(id);
    if (!backend) throw notFound('推理后端不存在');
    if (!this.pool.allows(backend.baseUrl) && !backend.builtin) throw fail(`后端${ADDRESS_REFUSED}`);
    const timedOut = Symbol('timeout');
    const models = await withTimeout<EngineModel[] | typeof timedOut>(
      backend.engine.listModels().catch((error: unknown) => {
        // Listing is no task: an A1111 refusal's own words, not its "拒绝了任务" message for a run.
        const reason =
          error instanceof SdWebUiError ? error.detail : error instanceof Error ? error.message : '无法连接';
        throw fail(`读取「${backend.name}」的模型列表失败：${reason}`);
      }),
      HEALTH_TIMEOUT_MS,
      timedOut,
    );
    if (models === timedOut) throw fail(`读取「${backend.name}」的模型列表超时，请稍后再试`);
    return { kind: backend.kind, models };
  }

  /**
   * A backend limited to some checkpoints also serves the ones just imported from it; one that serves every
   * checkpoint of its kind (an empty list) stays so.
   */
  async serveCheckpoints(id: string, titles: string[]): Promise<void> {
    const backend = this.pool.get(id);
    if (!backend || backend.builtin || backend.models.length === 0) return;
    const missing = titles.filter((title) => !backend.models.includes(title));
    if (missing.length === 0) return;
    backend.models = [...backend.models, ...missing];
    await this.repo.update(id, { models: JSON.stringify(backend.models), updated_at: nowIso() });
  }

  /** 检测: checks one backend now and answers its state. */
  async test(id: string): Promise<BackendItem> {
    const backend = this.pool.get(id);
    if (!backend) throw notFound('推理后端不存在');
    if (!backend.builtin) await this.pool.check(backend);
    return this.item(id);
  }
}
