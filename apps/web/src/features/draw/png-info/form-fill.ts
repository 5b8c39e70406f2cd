import {
  type ArtModel,
  type FormConfigItem,
  type LoraStyle,
  type LoraUse,
  modelBaseName,
  modelHashInTitle,
  type Parameters,
  type PngInfo,
  type PngInfoSource,
  type PromptGroupItem,
  siteSamplerFor,
} from '@huafang/contracts';
import { customPromptItem } from '../../prompt/custom-word';

/** What a picture's PNG info puts into /draw, and what of it the site could not take. */
export interface PngInfoFill {
  promptGroup: PromptGroupItem[];
  negativePromptGroup: PromptGroupItem[];
  parameters: Parameters;
  /** What was filled in, for the notice: 提示词, 采样器, … */
  filled: string[];
  /** Chinese sentences: 本站没有模型「xxx」, 已忽略 LoRA「yyy」… */
  unmatched: string[];
}

export interface PngInfoFillContext {
  formConfig: FormConfigItem[];
  current: Parameters;
  /** The models the form's model field offers. */
  models: ArtModel[];
  /** The values of the form's sampler options. */
  samplers: string[];
  /** The LoRA styles of the site; null when the site could not list them. */
  loras: LoraStyle[] | null;
  newId: () => string;
}

export const SOURCE_NAMES: Record<PngInfoSource, string> = {
  huafang: '画坊',
  a1111: 'AUTOMATIC1111 / Forge',
  comfy: 'ComfyUI',
};

const MAX_WORDS = 150;

/** A prompt cut into words at top-level commas (not inside `(…)`, `[…]`, `{…}`, `<…>`) and line breaks. */
export function promptWords(prompt: string): string[] {
  const words: string[] = [];
  let depth = 0;
  let word = '';
  for (const char of prompt) {
    if ('([{<'.includes(char)) depth += 1;
    if (')]}>'.includes(char)) depth = Math.max(0, depth - 1);
    if ((depth === 0 && (char === ',' || char === '，')) || char === '\n') {
      words.push(word);
      word = '';
    } else word += char;
  }
  words.push(word);
  const seen = new Set<string>();
  return words
    .map((w) => w.trim())
    .filter((w) => {
      const key = w.toLowerCase();
      if (!w || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

function wordsToGroup(prompt: string, newId: () => string): PromptGroupItem[] {
  // A word longer than a chip takes keeps its text whole for the model and a cut label.
  return promptWords(prompt)
    .slice(0, MAX_WORDS)
    .map((word) => {
      const text = word.slice(0, 400);
      return { ...customPromptItem(newId(), text.slice(0, 200)), promptText: text };
    });
}

/** Every field of a form, collapses opened. */
function fieldsOf(items: FormConfigItem[]): FormConfigItem[] {
  return items.flatMap((item) => (item.type === 'collapse' ? [item, ...fieldsOf(item.children ?? [])] : [item]));
}

const normalName = (name: string) => modelBaseName(name).toLowerCase();

/** The site's model a picture names: by checkpoint file name, else by A1111's short hash in the checkpoint title. */
export function matchModel(info: Pick<PngInfo, 'model' | 'modelHash'>, models: ArtModel[]): ArtModel | null {
  if (info.model) {
    const wanted = normalName(info.model);
    const byName = models.find((model) => normalName(model.checkpoint) === wanted);
    if (byName) return byName;
  }
  const hash = info.modelHash?.toLowerCase();
  if (hash && hash.length >= 8) {
    const byHash = models.find((model) => {
      const own = modelHashInTitle(model.checkpoint);
      return own !== null && (own.startsWith(hash) || hash.startsWith(own));
    });
    if (byHash) return byHash;
  }
  return null;
}

export function matchLora(name: string, loras: LoraStyle[]): LoraStyle | null {
  const wanted = normalName(name);
  return loras.find((lora) => normalName(lora.loraName) === wanted) ?? null;
}

const clamp = (value: number, field: FormConfigItem | undefined) =>
  Math.min(field?.max ?? Number.POSITIVE_INFINITY, Math.max(field?.min ?? Number.NEGATIVE_INFINITY, value));

/** The form filled from a picture's PNG info: the words, the parameters the form has, the model and LoRAs matched. */
export function fillFromPngInfo(info: PngInfo, context: PngInfoFillContext): PngInfoFill {
  const fields = new Map(fieldsOf(context.formConfig).map((field) => [field.name, field]));
  const known = (name: string) => fields.has(name) || name in context.current;
  const parameters: Parameters = { ...context.current };
  const filled: string[] = [];
  const unmatched: string[] = [];

  const promptGroup = wordsToGroup(info.prompt, context.newId);
  const negativePromptGroup = wordsToGroup(info.negativePrompt, context.newId);
  if (promptGroup.length > 0) filled.push('提示词');
  if (negativePromptGroup.length > 0) filled.push('反向提示词');

  const setNumber = (name: string, value: number | null, label: string) => {
    if (value === null || !known(name)) return;
    parameters[name] = clamp(value, fields.get(name));
    filled.push(label);
  };
  setNumber('steps', info.steps, '采样步数');
  setNumber('cfgScale', info.cfgScale, '提示词相关性');
  setNumber('seed', info.seed, '随机种子');
  setNumber('denoisingStrength', info.denoisingStrength, '重绘幅度');
  if (info.width !== null && info.height !== null && known('width') && known('height')) {
    const width = clamp(info.width, fields.get('width'));
    const height = clamp(info.height, fields.get('height'));
    parameters.width = width;
    parameters.height = height;
    filled.push('尺寸');
    if (width !== info.width || height !== info.height) {
      unmatched.push(`尺寸 ${info.width}×${info.height} 超出本站范围，已改为 ${width}×${height}`);
    }
  }
  if (known('batchSize')) parameters.batchSize = 1;

  if (info.sampler && known('sampler')) {
    const sampler = siteSamplerFor({ sampler: info.sampler, scheduleType: info.scheduleType }, context.samplers);
    const named =
      info.scheduleType && info.scheduleType !== 'Automatic' ? `${info.sampler}（${info.scheduleType}）` : info.sampler;
    if (sampler) {
      parameters.sampler = sampler;
      filled.push('采样器');
    } else unmatched.push(`本站没有采样器「${named}」，已保留原来的采样器`);
  }

  if ((info.model || info.modelHash) && known('modelId')) {
    const model = matchModel(info, context.models);
    const named = info.model ?? info.modelHash ?? '';
    if (!model) unmatched.push(`本站没有模型「${named}」，已保留原来的模型`);
    else if (model.locked)
      unmatched.push(`模型「${model.modelName}」尚未解锁${model.unlockHint ? `：${model.unlockHint}` : ''}`);
    else {
      parameters.modelId = model.id;
      filled.push(`模型「${model.modelName}」`);
    }
  }

  if (info.loras.length > 0) {
    const uses: LoraUse[] = [];
    for (const lora of info.loras) {
      const style = context.loras ? matchLora(lora.name, context.loras) : null;
      if (!style) unmatched.push(`本站没有 LoRA「${lora.name}」，已忽略`);
      else if (!known('loras')) unmatched.push(`这个模板不能使用 LoRA 风格，已忽略 LoRA「${lora.name}」`);
      else if (style.locked) unmatched.push(`LoRA「${style.name}」尚未解锁，已忽略`);
      else {
        const weight = Math.min(style.maxWeight, Math.max(style.minWeight, lora.weight));
        uses.push({ loraId: style.id, weight });
      }
    }
    if (uses.length > 0) {
      parameters.loras = uses.slice(0, 5);
      filled.push('LoRA 风格');
    }
  }

  if (info.controlNets.length > 0) {
    unmatched.push(`图片用了 ${info.controlNets.length} 个 ControlNet 控制，参考图不在图片里，未填入`);
  }
  return { promptGroup, negativePromptGroup, parameters, filled, unmatched };
}
