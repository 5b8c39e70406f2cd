import {
  type LoraAdmin,
  type LoraStyle,
  type LoraUse,
  type loraBodySchema,
  MODEL_FAMILIES,
  type ModelFamily,
} from '@huafang/contracts';
import type { z } from 'zod';
import type { EngineLora } from '../../engines/engine.js';
import { fail, notFound } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import { seedDemoLoras } from '../../seed/demo-content.js';
import type { BackendPool } from '../backends/backend-pool.js';
import type { Viewer } from '../template/template.service.js';
import type { LoraRepository, LoraRow } from './lora.repository.js';
import { accessOf, type Lock, type PlanAccess } from './plan-access.js';

type LoraBody = z.output<typeof loraBodySchema>;

const familyOf = (text: string): ModelFamily => MODEL_FAMILIES.find((family) => family === text) ?? '其他';

function wordsOf(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((word): word is string => typeof word === 'string') : [];
  } catch {
    return [];
  }
}

const toStyle = (row: LoraRow, lock: Lock): LoraStyle => ({
  id: row.id,
  name: row.name,
  loraName: row.lora_name,
  styleGroup: row.style_group,
  cover: row.cover,
  description: row.description,
  family: familyOf(row.family),
  engine: row.engine as LoraStyle['engine'],
  triggerWords: wordsOf(row.trigger_words),
  defaultWeight: Number(row.default_weight),
  minWeight: Number(row.min_weight),
  maxWeight: Number(row.max_weight),
  locked: lock.locked,
  unlockHint: lock.unlockHint,
});

const columnsOf = (body: LoraBody) => ({
  name: body.name,
  lora_name: body.loraName,
  engine: body.engine,
  style_group: body.styleGroup,
  cover: body.cover,
  description: body.description,
  family: body.family,
  trigger_words: JSON.stringify(body.triggerWords),
  default_weight: body.defaultWeight,
  min_weight: body.minWeight,
  max_weight: body.maxWeight,
  enabled: body.enabled ? 1 : 0,
  sort: body.sort,
  access: JSON.stringify(body.access),
});

/** A job's LoRA as the engine gets it, with its Chinese name for messages. */
export type ResolvedLora = { lora: EngineLora; label: string };

/** The model a job's LoRAs must fit. */
export type LoraTarget = { engine: string; family: ModelFamily; modelName: string };

/** LoRA styles: the picker's list for a user, the admin's list and edits, and the checks of a job's `loras`. */
export class LoraService {
  constructor(
    private readonly repo: LoraRepository,
    private readonly access: PlanAccess,
    private readonly pool: BackendPool,
  ) {}

  /** The built-in engine's demo LoRAs, offered once (SEED_DEMO). */
  seedDemo(): Promise<void> {
    return seedDemoLoras({ loras: this.repo });
  }

  /** GET /api/art/loras: enabled LoRAs, each locked or not for this user. */
  async styles(viewer: Viewer): Promise<LoraStyle[]> {
    const [rows, judge] = await Promise.all([this.repo.list(), this.access.judge(viewer)]);
    return rows.filter((row) => row.enabled === 1).map((row) => toStyle(row, judge(accessOf(row.access))));
  }

  /** The admin's list, with the backends whose last sync reported each LoRA (the built-in engine: its catalogue). */
  async adminList(): Promise<LoraAdmin[]> {
    const [rows, holders] = await Promise.all([this.repo.list(), this.holders()]);
    return rows.map((row) => this.toAdmin(row, holders));
  }

  private async holders(): Promise<Map<string, string[]>> {
    await this.pool.reload();
    const out = new Map<string, string[]>();
    for (const backend of this.pool.all()) {
      for (const lora of backend.loras ?? []) {
        const key = `${backend.kind}\t${lora}`;
        out.set(key, [...(out.get(key) ?? []), backend.name]);
      }
    }
    return out;
  }

  private toAdmin(row: LoraRow, holders: Map<string, string[]>): LoraAdmin {
    return {
      ...toStyle(row, { locked: false, unlockHint: null }),
      enabled: row.enabled === 1,
      sort: row.sort,
      access: accessOf(row.access),
      backends: holders.get(`${row.engine}\t${row.lora_name}`) ?? [],
      hash: row.hash,
    };
  }

  private async one(id: string): Promise<LoraAdmin> {
    const row = await this.repo.find(id);
    if (!row) throw notFound('LoRA 风格不存在');
    return this.toAdmin(row, await this.holders());
  }

  async create(body: LoraBody): Promise<LoraAdmin> {
    const id = newId();
    const now = nowIso();
    const inserted = await this.repo.insert({ id, ...columnsOf(body), hash: null, created_at: now, updated_at: now });
    if (!inserted) throw fail(`已有后端 LoRA 名为「${body.loraName}」的风格`);
    return this.one(id);
  }

  async update(id: string, body: LoraBody): Promise<LoraAdmin> {
    const row = await this.repo.find(id);
    if (!row) throw notFound('LoRA 风格不存在');
    const same = await this.repo.findByName(body.engine, body.loraName);
    if (same && same.id !== id) throw fail(`已有后端 LoRA 名为「${body.loraName}」的风格`);
    await this.repo.update(id, { ...columnsOf(body), updated_at: nowIso() });
    return this.one(id);
  }

  async remove(id: string): Promise<void> {
    if (!(await this.repo.find(id))) throw notFound('LoRA 风格不存在');
    await this.repo.delete(id);
  }

  /**
   * A job's LoRAs checked for its model and user: each exists and is enabled, fits the model's engine and family,
   * its weight is within its range and the user may use it. Answers what the engine gets (backend name, weight,
   * hash); a LoRA named twice counts once, with the last weight.
   */
  async resolve(viewer: Viewer, uses: readonly LoraUse[], target: LoraTarget): Promise<ResolvedLora[]> {
    if (uses.length === 0) return [];
    const judge = await this.access.judge(viewer);
    const resolved = new Map<string, ResolvedLora>();
    for (const use of uses) {
      const row = await this.repo.find(use.loraId);
      if (row?.enabled !== 1) throw fail('所选 LoRA 风格不存在或已停用');
      const style = toStyle(row, judge(accessOf(row.access)));
      if (row.engine !== target.engine)
        throw fail(`LoRA 风格「${style.name}」不能用于模型「${target.modelName}」（推理引擎不同）`);
      if (style.family !== target.family)
        throw fail(
          `LoRA 风格「${style.name}」适用于 ${style.family} 模型，不能用于 ${target.family} 模型「${target.modelName}」`,
        );
      if (use.weight < style.minWeight || use.weight > style.maxWeight)
        throw fail(`LoRA 风格「${style.name}」的权重须在 ${style.minWeight} 到 ${style.maxWeight} 之间`);
      if (style.locked) throw fail(`LoRA 风格「${style.name}」${style.unlockHint}`);
      resolved.set(row.lora_name, {
        lora: { name: row.lora_name, weight: use.weight, ...(row.hash ? { hash: row.hash } : {}) },
        label: style.name,
      });
    }
    return [...resolved.values()];
  }

  /** The LoRA a `<lora:name:weight>` in a prompt names, for the model's engine; unknown names are refused. */
  async idOfName(loraName: string, engine: string): Promise<string> {
    // ComfyUI names a LoRA by its file: `<lora:ink:1>` also finds ink.safetensors, as A1111 would.
    const row =
      (await this.repo.findByName(engine, loraName)) ??
      (await this.repo.list()).find(
        (lora) => lora.engine === engine && lora.lora_name.replace(/\.[^.\\/]+$/, '') === loraName,
      );
    if (row?.enabled !== 1) throw fail(`提示词中的 LoRA「${loraName}」不存在或未启用`);
    return row.id;
  }
}
