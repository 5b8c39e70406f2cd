import { type ArtModel, MODEL_FAMILIES, type ModelBody, type ModelGroup } from '@huafang/contracts';
import type { Selectable } from 'kysely';
import type { ModelTable } from '../../platform/db/schema.js';
import { fail, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Repositories } from '../../repositories.js';
import type { BackendPool } from '../backends/backend-pool.js';
import { accessOf, type Lock, type PlanAccess } from '../loras/plan-access.js';
import type { Viewer } from '../template/template.service.js';
import type { ModelRepository } from './model.repository.js';

const toModel = (row: Selectable<ModelTable>, lock: Lock = OPEN): ArtModel => ({
  id: row.id,
  modelName: row.model_name,
  cover: row.cover,
  baseModel: row.base_model,
  engine: row.engine as ArtModel['engine'],
  checkpoint: row.checkpoint,
  enabled: row.enabled === 1,
  chinesePrompts: row.chinese_prompts === 1,
  family: MODEL_FAMILIES.find((family) => family === row.family) ?? '其他',
  access: accessOf(row.access),
  locked: lock.locked,
  unlockHint: lock.unlockHint,
});

const OPEN: Lock = { locked: false, unlockHint: null };

const columnsOf = (body: ModelBody) => ({
  group_id: body.groupId,
  model_name: body.modelName,
  cover: body.cover ?? null,
  base_model: body.baseModel,
  engine: body.engine,
  checkpoint: body.checkpoint,
  enabled: body.enabled ? 1 : 0,
  chinese_prompts: body.chinesePrompts ? 1 : 0,
  family: body.family,
  access: JSON.stringify(body.access),
});

export class ModelService {
  private readonly models: ModelRepository;

  constructor(
    repos: Repositories,
    private readonly access: PlanAccess,
    private readonly pool: Pick<BackendPool, 'reload' | 'serverNames'>,
  ) {
    this.models = repos.models;
  }

  /**
   * The model menu (spec §7): groups with their models; `enabled` scope hides disabled models. With a viewer, each
   * model says whether it is locked for them (admins: never). An admin's `all` list also names the backends that
   * serve each model.
   */
  async menu(scope: 'all' | 'enabled', viewer?: Viewer): Promise<ModelGroup[]> {
    const withBackends = scope === 'all' && viewer?.isAdmin === true;
    const [groups, models, judge] = await Promise.all([
      this.models.groups(),
      this.models.models(),
      viewer ? this.access.judge(viewer) : null,
      withBackends ? this.pool.reload() : null,
    ]);
    return groups.map((g) => ({
      id: g.id,
      name: g.name,
      models: models
        .filter((m) => m.group_id === g.id && (scope === 'all' || m.enabled === 1))
        .map((m) => ({
          ...toModel(m, judge ? judge(accessOf(m.access)) : OPEN),
          ...(withBackends ? { backends: this.pool.serverNames(m.engine, m.checkpoint) } : {}),
        })),
    }));
  }

  /** Whether the viewer may use the model: refused with the unlock hint, charging nothing. */
  async assertUsable(viewer: Viewer, model: ArtModel): Promise<void> {
    const lock = (await this.access.judge(viewer))(model.access);
    if (lock.locked) throw fail(`模型「${model.modelName}」${lock.unlockHint}`);
  }

  async enabledModels(): Promise<ArtModel[]> {
    return (await this.models.models()).filter((m) => m.enabled === 1).map((m) => toModel(m));
  }

  async find(id: string): Promise<ArtModel | null> {
    const row = await this.models.findModel(id);
    return row ? toModel(row) : null;
  }

  async createGroup(name: string): Promise<{ id: string }> {
    const id = newId();
    await this.models.insertGroup({ id, name, sort: await this.models.countGroups() });
    return { id };
  }

  async renameGroup(id: string, name: string): Promise<{ id: string }> {
    if (!(await this.models.findGroup(id))) throw notFound('模型分组不存在');
    await this.models.updateGroup(id, { name });
    return { id };
  }

  /** Only an empty group goes: its models would otherwise vanish from every menu with it. */
  async removeGroup(id: string): Promise<void> {
    if (!(await this.models.findGroup(id))) throw notFound('模型分组不存在');
    if ((await this.models.countModelsIn(id)) > 0) throw fail('分组下还有模型，请先删除或移走这些模型');
    await this.models.deleteGroup(id);
  }

  async create(body: ModelBody): Promise<ArtModel> {
    if (!(await this.models.findGroup(body.groupId))) throw fail('模型分组不存在');
    const id = newId();
    await this.models.insertModel({ id, sort: 0, ...columnsOf(body) });
    return toModel((await this.models.findModel(id))!);
  }

  async update(id: string, body: ModelBody): Promise<ArtModel> {
    if (!(await this.models.findModel(id))) throw notFound('模型不存在');
    if (!(await this.models.findGroup(body.groupId))) throw fail('模型分组不存在');
    await this.models.updateModel(id, columnsOf(body));
    return toModel((await this.models.findModel(id))!);
  }

  async remove(id: string): Promise<void> {
    if (!(await this.models.findModel(id))) throw notFound('模型不存在');
    await this.models.deleteModel(id);
  }
}
