import type { BackendCheckpoint, ModelImportResult, modelImportBodySchema } from '@huafang/contracts';
import type { z } from 'zod';
import { guessFamily } from '../../engines/family-guess.js';
import { fail } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Repositories } from '../../repositories.js';
import type { BackendAdminService } from '../backends/backend-admin.service.js';
import type { ModelRepository } from './model.repository.js';

const MODEL_NAME_MAX = 40;

/** A model name from a checkpoint's readable name: visible characters, at most 40 of them. */
export function modelNameOf(name: string, title: string): string {
  const visible = (text: string) =>
    text
      .replace(/[\p{Cc}\p{Cf}]/gu, '')
      .trim()
      .slice(0, MODEL_NAME_MAX)
      .trim();
  return visible(name) || visible(title) || '未命名模型';
}

/** 从后端导入: what a registered backend offers, and turning chosen checkpoints into models of a group. */
export class ModelImportService {
  private readonly models: ModelRepository;

  constructor(
    repos: Repositories,
    private readonly backends: BackendAdminService,
  ) {
    this.models = repos.models;
  }

  async checkpoints(backendId: string): Promise<BackendCheckpoint[]> {
    const { kind, models } = await this.backends.checkpoints(backendId);
    const registered = await this.models.checkpointsOf(kind);
    return models.map((model) => ({ title: model.title, name: model.name, registered: registered.has(model.title) }));
  }

  /** Checkpoints the backend no longer reports are refused; ones a model already uses are skipped. */
  async import(body: z.output<typeof modelImportBodySchema>): Promise<ModelImportResult> {
    if (!(await this.models.findGroup(body.groupId))) throw fail('模型分组不存在');
    const { kind, models } = await this.backends.checkpoints(body.backendId);
    const offered = new Map(models.map((model) => [model.title, model]));
    const unknown = body.checkpoints.find((title) => !offered.has(title));
    if (unknown) throw fail(`后端没有模型「${unknown}」，请刷新列表后重试`);
    const registered = await this.models.checkpointsOf(kind);
    const wanted = [...new Set(body.checkpoints)].filter((title) => !registered.has(title));
    for (const [index, title] of wanted.entries()) {
      await this.models.insertModel({
        id: newId(),
        group_id: body.groupId,
        model_name: modelNameOf(offered.get(title)!.name, title),
        cover: null,
        base_model: body.baseModel,
        // The family the base model or file names; the admin corrects it in the model's settings.
        family: guessFamily(body.baseModel, title),
        engine: kind,
        checkpoint: title,
        enabled: body.enabled ? 1 : 0,
        sort: index,
      });
    }
    await this.backends.serveCheckpoints(body.backendId, wanted);
    return { created: wanted.length, skipped: body.checkpoints.length - wanted.length };
  }
}
