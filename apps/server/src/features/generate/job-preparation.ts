import { randomInt } from 'node:crypto';
import { FAMILY_SIZES, FREE_CREATION_FORM, type PromptGroupItem, type TaskStep } from '@huafang/contracts';
import { buildPromptText } from '../../engines/engine.js';
import { fail } from '../../platform/errors.js';
import type { BackendPool } from '../backends/backend-pool.js';
import type { FileService } from '../files/file.service.js';
import type { LoraService, ResolvedLora } from '../loras/lora.service.js';
import type { ModelService } from '../models/model.service.js';
import type { SensitiveWordFilter } from '../moderation/sensitive-word-filter.js';
import type { TemplateService, Viewer } from '../template/template.service.js';
import { hasHan } from '../translate/prompt-syntax.js';
import type { TranslateService } from '../translate/translate.service.js';
import type { WorkRow } from '../works/work.repository.js';
import { SEED_RANGE } from './job-inputs.js';
import { costOf, type JobPayload } from './job-payload.js';
import { checkParameters, checkTypedLoras } from './parameter-check.js';
import { takeLoraTags } from './prompt-loras.js';

/** A run checked and fixed, ready to be put in line: what the job runs, what it costs, the prompts it keeps. */
export type PreparedJob = {
  payload: JobPayload;
  cost: number;
  promptGroup: PromptGroupItem[];
  negativePromptGroup: PromptGroupItem[];
};

const FREE_CREATION_NAME = '自由创作';

/** The texts of a prompt group the filter reads: each word's label and the prompt text (often its translation). */
const textsOf = (group: PromptGroupItem[], custom: boolean) =>
  group.filter((item) => (item.custom === '1') === custom).flatMap((item) => [item.groupName, item.promptText]);

/**
 * What a predict, submit or next step asks for, checked before anything is reserved or queued: the template step,
 * clean prompts, the form's parameters, a model some backend serves.
 */
export class JobPreparation {
  constructor(
    private readonly deps: {
      templates: TemplateService;
      models: ModelService;
      loras: LoraService;
      files: FileService;
      words: SensitiveWordFilter;
      pool: BackendPool;
      translate: TranslateService;
    },
  ) {}

  private async templateStep(viewer: Viewer, templateId: string, stepIndex: number) {
    const detail = await this.deps.templates.detail(viewer, templateId);
    const step = detail.taskStepList.find((s) => s.stepIndex === stepIndex) ?? detail.taskStepList[stepIndex];
    if (!step) throw fail(`模板「${detail.name}」没有第 ${stepIndex + 1} 步`);
    return { detail, step };
  }

  /** Checks a run and fixes everything it needs; throws a -1 naming the field on bad input. */
  async prepare(
    viewer: Viewer,
    input: {
      templateId: string | null;
      stepIndex: number;
      promptGroup: PromptGroupItem[] | undefined;
      negativePromptGroup: PromptGroupItem[] | undefined;
      parameters: Record<string, unknown>;
      parentWork?: WorkRow;
    },
    /** A predict only prices the run: its words need no translation. */
    options: { translate: boolean } = { translate: true },
  ): Promise<PreparedJob> {
    let step: TaskStep | null = null;
    let templateName = FREE_CREATION_NAME;
    if (input.templateId) {
      const found = await this.templateStep(viewer, input.templateId, input.stepIndex);
      step = found.step;
      templateName = found.detail.name;
    }
    // `<lora:name:w>` typed in a prompt is a LoRA of the job, not words to translate.
    const { group: promptGroup, tags: loraTags } = takeLoraTags(input.promptGroup ?? step?.promptGroup ?? []);
    const negativePromptGroup = input.negativePromptGroup ?? step?.negativePromptGroup ?? [];
    // Before anything is reserved or queued: a refused run costs nothing.
    const { words } = this.deps;
    if (input.templateId) {
      await words.assertClean('customWord', ...textsOf(promptGroup, true), ...textsOf(negativePromptGroup, true));
    } else {
      await words.assertClean('freePrompt', ...textsOf(promptGroup, true));
      await words.assertClean('freeNegativePrompt', ...textsOf(negativePromptGroup, true));
    }
    await words.assertClean('prompt', ...textsOf(promptGroup, false));
    await words.assertClean('negativePrompt', ...textsOf(negativePromptGroup, false));
    const mode = step?.generateMode ?? 'txt2img';
    const useParent = Boolean(input.parentWork && (step?.useParentImage || mode !== 'txt2img'));
    const { models, files } = this.deps;
    const parameters = await checkParameters(
      step?.formConfig ?? FREE_CREATION_FORM,
      step?.parameters ?? {},
      input.parameters,
      {
        userId: viewer.id,
        modelEnabled: async (id) => (await models.find(id))?.enabled === true,
        defaultModelId: async (groups) => {
          const menu = await models.menu('enabled', viewer);
          const chosen = menu.filter((g) => groups.length === 0 || groups.includes(g.id) || groups.includes(g.name));
          // A form without a model choice draws with the first model the user may use.
          return chosen.flatMap((g) => g.models).find((m) => !m.locked)?.id ?? null;
        },
        requireOwnFile: async (fileId, label) => {
          await files.requireOwned(viewer.id, fileId, label);
        },
        sizeRange: async (id) => {
          const found = await models.find(id);
          return found ? { ...FAMILY_SIZES[found.family], family: found.family } : null;
        },
      },
      mode !== 'txt2img' && !useParent,
    );
    // An upscale paints one image from one input, whatever the batch field says.
    if (mode === 'upscale') parameters.batchSize = 1;
    const model = await models.find(parameters.modelId);
    if (!model) throw fail('模型不存在或已停用');
    await models.assertUsable(viewer, model);
    const { loras } = this.deps;
    if (loraTags.length > 0) {
      let typed = parameters.loras ?? [];
      for (const tag of loraTags) {
        const loraId = await loras.idOfName(tag.name, model.engine);
        typed = [...typed.filter((use) => use.loraId !== loraId), { loraId, weight: tag.weight }];
      }
      parameters.loras = checkTypedLoras(step?.formConfig ?? FREE_CREATION_FORM, step?.parameters ?? {}, typed);
    }
    const resolved = await loras.resolve(viewer, parameters.loras ?? [], {
      engine: model.engine,
      family: model.family,
      modelName: model.modelName,
    });
    await this.assertPlaceable(model, resolved);
    const [read, readNegative] =
      model.chinesePrompts || !options.translate
        ? [promptGroup.map(withoutEnglish), negativePromptGroup.map(withoutEnglish)]
        : await this.inEnglish(promptGroup, negativePromptGroup, input.templateId === null);
    const prompt = buildPromptText(read.map(engineText));
    if (!prompt && mode === 'txt2img') throw fail('请至少添加一个提示词');
    const negativePrompt = buildPromptText(readNegative.map(engineText));
    const sourcePrompt = buildPromptText(promptGroup);
    const sourceNegativePrompt = buildPromptText(negativePromptGroup);
    const payload: JobPayload = {
      templateId: input.templateId,
      templateName,
      templateStepId: step?.id ?? null,
      stepIndex: step?.stepIndex ?? 0,
      mode,
      prompt,
      negativePrompt,
      sourcePrompt: sourcePrompt === prompt ? null : sourcePrompt,
      sourceNegativePrompt: sourceNegativePrompt === negativePrompt ? null : sourceNegativePrompt,
      // A seed drawn here, not by the engine, lets a batch stopped part-way resume with exactly its missing seeds.
      parameters: { ...parameters, seed: parameters.seed < 0 ? randomInt(SEED_RANGE) : parameters.seed },
      engineKind: model.engine,
      checkpoint: model.checkpoint,
      ...(resolved.length > 0 ? { loras: resolved.map(({ lora }) => lora) } : {}),
      initImage: useParent
        ? { kind: 'work', id: input.parentWork!.id }
        : parameters.initImageFileId
          ? { kind: 'file', id: parameters.initImageFileId }
          : null,
    };
    return { payload, cost: costOf(parameters, mode), promptGroup: read, negativePromptGroup: readNegative };
  }

  /**
   * Some backend must have the checkpoint and every LoRA, or the job could never run: refused before anything is
   * charged, naming what is missing.
   */
  private async assertPlaceable(
    model: { engine: string; checkpoint: string; modelName: string },
    loras: readonly ResolvedLora[],
  ): Promise<void> {
    const { pool } = this.deps;
    if (!(await pool.hasCandidate(model.engine, model.checkpoint))) {
      throw fail(`当前没有可用的推理后端支持模型「${model.modelName}」，请联系管理员`);
    }
    if (loras.length === 0) return;
    const names = loras.map(({ lora }) => lora.name);
    if (await pool.hasCandidate(model.engine, model.checkpoint, names)) return;
    for (const { lora, label } of loras) {
      if (!(await pool.hasCandidate(model.engine, model.checkpoint, [lora.name]))) {
        throw fail(`没有可用的推理后端提供 LoRA「${label}」，请联系管理员同步模型`);
      }
    }
    throw fail(`没有一个推理后端同时提供模型「${model.modelName}」和所选的全部 LoRA 风格，请减少 LoRA 或联系管理员`);
  }

  /**
   * For a model that reads only English: each word's English, from the user's own (`english`, edited on /draw) or
   * else its text, with the Chinese in it translated; all the words of a run in one translation request. Words
   * already in English stay as they are. The English is user text too, so it passes the word list.
   */
  private async inEnglish(
    promptGroup: PromptGroupItem[],
    negativePromptGroup: PromptGroupItem[],
    free: boolean,
  ): Promise<[PromptGroupItem[], PromptGroupItem[]]> {
    const items = [...promptGroup, ...negativePromptGroup];
    const sources = items.map((item) => item.english?.trim() || wordText(item));
    const chinese = [...new Set(sources.filter(hasHan))];
    const translated = new Map<string, string>();
    if (chinese.length > 0) {
      const english = await this.deps.translate.toEnglish(chinese);
      for (const [i, text] of chinese.entries()) translated.set(text, english[i] ?? text);
    }
    const read = items.map((item, i): PromptGroupItem => {
      const source = sources[i]!;
      const english = translated.get(source) ?? source;
      return { ...withoutEnglish(item), ...(english === wordText(item) ? {} : { english }) };
    });
    const positive = read.slice(0, promptGroup.length);
    const negative = read.slice(promptGroup.length);
    const englishOf = (group: PromptGroupItem[]) => group.flatMap((item) => (item.english ? [item.english] : []));
    await this.deps.words.assertClean(free ? 'freePrompt' : 'prompt', ...englishOf(positive));
    await this.deps.words.assertClean(free ? 'freeNegativePrompt' : 'negativePrompt', ...englishOf(negative));
    return [positive, negative];
  }
}

/** The text of a word as written: what a model that reads Chinese gets. */
const wordText = (item: PromptGroupItem) => item.promptText?.trim() || item.groupName.trim();

const withoutEnglish = ({ english: _, ...item }: PromptGroupItem): PromptGroupItem => item;

/** What the engine reads for a word: its English where it has one. */
const engineText = (item: PromptGroupItem) => ({ promptText: item.english ?? wordText(item) });
