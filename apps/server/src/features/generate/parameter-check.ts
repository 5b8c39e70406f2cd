import { type FormConfigItem, type LoraUse, loraUsesSchema, type Parameters } from '@huafang/contracts';
import { SIZE_PRESETS } from '../../engines/builtin/catalog.js';
import type { ControlMode, SamplingSettings } from '../../engines/engine.js';
import { fail } from '../../platform/errors.js';

/** One ControlNet unit as a job keeps it, after the checks. */
export type CheckedControlNet = {
  controlnetModule: string;
  controlnetModel: string;
  inputImageFileId: string;
  weight: number;
  guidanceStart: number;
  guidanceEnd: number;
  processorRes: number;
  thresholdA: number;
  thresholdB: number;
  controlMode: ControlMode;
};

/** The parameters of a job after the checks: every value present, in range, and the user's to use. */
export type CheckedParameters = SamplingSettings & {
  modelId: string;
  denoisingStrength: number;
  initImageFileId: string | null;
  upscaleFactor: number;
  controlNets: CheckedControlNet[];
  /** LoRA styles by id and weight (absent in jobs from before LoRAs); job-preparation resolves and checks them. */
  loras?: LoraUse[];
};

/** The sizes a model's family draws: the default when the form leaves the size open, and each side's range. */
export type SizeRange = { width: number; height: number; min: number; max: number; family: string };

/** Hard limits whatever a template allows: what the engines and the machine can take. */
const LIMITS = {
  steps: { min: 1, max: 150, label: '采样步数' },
  cfgScale: { min: 1, max: 30, label: '提示词相关性' },
  width: { min: 64, max: 2048, label: '宽度' },
  height: { min: 64, max: 2048, label: '高度' },
  seed: { min: -1, max: 4294967295, label: '随机种子' },
  batchSize: { min: 1, max: 8, label: '生成数量' },
  denoisingStrength: { min: 0, max: 1, label: '重绘幅度' },
  upscaleFactor: { min: 1, max: 4, label: '放大倍数' },
} as const;
const UNIT_LIMITS = {
  weight: { min: 0, max: 2, label: '控制权重' },
  guidanceStart: { min: 0, max: 1, label: '介入时机' },
  guidanceEnd: { min: 0, max: 1, label: '退出时机' },
  processorRes: { min: 64, max: 2048, label: '预处理分辨率' },
  thresholdA: { min: 1, max: 255, label: '低阈值' },
  thresholdB: { min: 1, max: 255, label: '高阈值' },
} as const;
const MAX_UNITS = 3;
/** A batch may not paint more than this many pixels (4 × 1024²): the queue's fairness assumes bounded jobs. */
const MAX_BATCH_PIXELS = 4 * 1024 * 1024;

/** What the checks need to ask of the rest of the product. */
export type ParameterContext = {
  userId: string;
  /** Resolves to the model's id when it exists and is enabled. */
  modelEnabled(modelId: string): Promise<boolean>;
  /** The first enabled model of the given groups (any group when empty), for a form without a model choice. */
  defaultModelId(groupNames: string[]): Promise<string | null>;
  /** Throws a not-found error naming `label` unless the file is the user's. */
  requireOwnFile(fileId: string, label: string): Promise<void>;
  /** The sizes the model's family draws (FAMILY_SIZES); absent: only the hard limits. */
  sizeRange?(modelId: string): Promise<SizeRange | null>;
};

type Field = FormConfigItem;

function flatten(items: Field[]): Field[] {
  return items.flatMap((item) =>
    item.type === 'collapse' && item.name !== 'controlNets' ? flatten(item.children ?? []) : [item],
  );
}

const isEditable = (field: Field | undefined) => field?.show === true && !field.disabled;

function numberIn(value: unknown, label: string, min: number, max: number, field?: Field): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw fail(`${label}须为数字`);
  const low = field?.min !== undefined ? Math.max(min, field.min) : min;
  const high = field?.max !== undefined ? Math.min(max, field.max) : max;
  if (n < low) throw fail(`${label}不能小于 ${low}`);
  if (n > high) throw fail(`${label}不能大于 ${high}`);
  return n;
}

function inOptions(value: unknown, field: Field, label: string): void {
  if (!field.option || field.option.length === 0) return;
  if (!field.option.some((option) => String(option.value) === String(value)))
    throw fail(`${label}的取值不在可选范围内`);
}

function text(value: unknown, label: string): string {
  if (typeof value !== 'string' && typeof value !== 'number') throw fail(`请选择${label}`);
  const s = String(value).trim();
  if (!s) throw fail(`请选择${label}`);
  if (s.length > 200) throw fail(`${label}过长`);
  return s;
}

/**
 * Merges the user's values over the step's saved parameters and checks them: only fields the form shows and
 * enables take the user's value (the others keep the template's), every number is within the field's range
 * and the hard limits, choices are among the options, and every image is the user's own upload.
 * A ControlNet field the user can fill needs at least one reference image. A failure is a -1 answer whose
 * message names the field; nothing is queued.
 */
export async function checkParameters(
  formConfig: Field[],
  stepParameters: Parameters,
  userParameters: Parameters,
  ctx: ParameterContext,
  needsInitImage: boolean,
): Promise<CheckedParameters> {
  const fields = new Map(flatten(formConfig).map((field) => [field.name, field]));
  const defaults: Parameters = {};
  for (const field of fields.values()) if (field.value !== undefined) defaults[field.name] = field.value;
  const merged: Parameters = { ...defaults, ...stepParameters };
  for (const [name, value] of Object.entries(userParameters)) {
    if (value !== undefined && value !== null && isEditable(fields.get(name))) merged[name] = value;
  }
  if (typeof merged.size === 'string' && isEditable(fields.get('size'))) {
    if (!SIZE_PRESETS.some((preset) => preset.value === merged.size)) throw fail('尺寸的取值不在可选范围内');
    const [w, h] = (merged.size as string).split('x').map(Number);
    merged.width = w;
    merged.height = h;
  }

  const labelOf = (name: keyof typeof LIMITS) => fields.get(name)?.text ?? LIMITS[name].label;
  const num = (name: keyof typeof LIMITS, fallback: number) => {
    const value = merged[name] ?? fallback;
    const field = fields.get(name);
    const n = numberIn(value, labelOf(name), LIMITS[name].min, LIMITS[name].max, field);
    if (field) inOptions(n, field, labelOf(name));
    return n;
  };

  const modelField = fields.get('modelId');
  let modelId = merged.modelId === undefined || merged.modelId === '' ? null : text(merged.modelId, '模型');
  if (modelId === null) modelId = await ctx.defaultModelId(modelField?.modelTabList ?? []);
  if (modelId === null) throw fail('暂无可用模型，请联系管理员');
  if (modelField) inOptions(modelId, modelField, modelField.text);
  if (!(await ctx.modelEnabled(modelId))) throw fail(`${modelField?.text ?? '模型'}不存在或已停用`);

  // A size the form only defaults (neither the step nor the user set it) is the model family's default size.
  const range = (await ctx.sizeRange?.(modelId)) ?? null;
  const sizeGiven = typeof merged.size === 'string' && isEditable(fields.get('size'));
  for (const side of ['width', 'height'] as const) {
    const given =
      sizeGiven ||
      stepParameters[side] !== undefined ||
      (userParameters[side] !== undefined && userParameters[side] !== null && isEditable(fields.get(side)));
    if (range && !given) merged[side] = range[side];
  }

  const steps = Math.round(num('steps', 20));
  const width = Math.round(num('width', range?.width ?? 512) / 8) * 8;
  const height = Math.round(num('height', range?.height ?? 512) / 8) * 8;
  if (range && [width, height].some((side) => side < range.min || side > range.max))
    throw fail(`${range.family} 模型的宽和高须在 ${range.min} 到 ${range.max} 之间，当前为 ${width}×${height}`);
  const batchSize = Math.round(num('batchSize', 1));
  if (width * height * batchSize > MAX_BATCH_PIXELS)
    throw fail(
      `图片尺寸与生成数量过大：宽×高×数量最多 ${MAX_BATCH_PIXELS} 像素（如 1024×1024 生成 4 张），请减小尺寸或数量`,
    );
  const seed = Math.round(num('seed', -1));

  const samplerField = fields.get('sampler');
  const sampler = text(merged.sampler ?? 'Euler a', samplerField?.text ?? '采样器');
  if (samplerField) inOptions(sampler, samplerField, samplerField.text);

  let initImageFileId: string | null = null;
  if (merged.initImageFileId !== undefined && merged.initImageFileId !== null && merged.initImageFileId !== '') {
    const label = fields.get('initImageFileId')?.text ?? '输入图片';
    initImageFileId = text(merged.initImageFileId, label);
    await ctx.requireOwnFile(initImageFileId, label);
  } else if (needsInitImage) {
    throw fail(`请先${fields.get('initImageFileId')?.text ?? '上传图片'}`);
  }

  return {
    modelId,
    sampler,
    steps,
    cfgScale: num('cfgScale', 7),
    width,
    height,
    seed,
    batchSize,
    denoisingStrength: num('denoisingStrength', 0.75),
    initImageFileId,
    // Templates of the first release name the upscale factor `scale`.
    upscaleFactor: num('upscaleFactor', typeof merged.scale === 'number' ? merged.scale : 2),
    controlNets: await checkControlNets(fields.get('controlNets'), merged.controlNets, stepParameters.controlNets, ctx),
    loras: checkLoraUses(fields.get('loras'), merged.loras, stepParameters.loras),
  };
}

/**
 * The `loras` parameter: LoRA ids and weights, at most five. A form field's options are the step's allowed set
 * (none: any LoRA that fits the model); LoRAs the step presets are allowed too. Whether each exists, fits the model,
 * is within its weight range and is the user's to use is checked by job-preparation, which knows the model.
 */
function checkLoraUses(field: Field | undefined, value: unknown, preset: unknown): LoraUse[] {
  if (value === undefined || value === null || value === '') return [];
  const parsed = loraUsesSchema.safeParse(value);
  if (!parsed.success) throw fail(parsed.error.issues[0]?.message ?? 'LoRA 风格格式不正确');
  const allowed = new Set((field?.option ?? []).map((option) => String(option.value)));
  if (allowed.size > 0) {
    for (const list of [field?.value, preset]) {
      for (const use of Array.isArray(list) ? list : []) {
        if (typeof use === 'object' && use !== null && 'loraId' in use) allowed.add(String(use.loraId));
      }
    }
    if (parsed.data.some((use) => !allowed.has(use.loraId)))
      throw fail(`${field?.text ?? 'LoRA 风格'}的取值不在可选范围内`);
  }
  return parsed.data;
}

/**
 * LoRAs typed as `<lora:name:w>` in a prompt are the user's choice like the form's: under the same field rules
 * (the step's allowed set, at most five), and refused where the step offers no LoRA field.
 */
export function checkTypedLoras(formConfig: Field[], stepParameters: Parameters, loras: LoraUse[]): LoraUse[] {
  const field = flatten(formConfig).find((item) => item.name === 'loras');
  if (!isEditable(field)) throw fail('这个模板不能使用 LoRA 风格，请删除提示词中的 <lora:…>');
  return checkLoraUses(field, loras, stepParameters.loras);
}

async function checkControlNets(
  field: Field | undefined,
  userUnits: unknown,
  savedUnits: unknown,
  ctx: ParameterContext,
): Promise<CheckedControlNet[]> {
  if (!field) return [];
  const units = Array.isArray(userUnits) ? userUnits : Array.isArray(savedUnits) ? savedUnits : [];
  if (units.length > MAX_UNITS) throw fail(`ControlNet 控制最多 ${MAX_UNITS} 个`);
  const children = new Map((field.children ?? []).map((child) => [child.name, child]));
  const defaults: Parameters = {};
  for (const child of children.values()) if (child.value !== undefined) defaults[child.name] = child.value;
  const checked: CheckedControlNet[] = [];
  for (const [index, raw] of units.entries()) {
    if (typeof raw !== 'object' || raw === null) throw fail(`${field.text} ${index + 1} 格式不正确`);
    const unit: Parameters = { ...defaults, ...(raw as Parameters) };
    // A unit without a reference image is switched off, as in A1111's UI (one unit with an image is enough).
    if (unit.inputImageFileId === undefined || unit.inputImageFileId === null || unit.inputImageFileId === '') continue;
    const where = units.length > 1 ? `${field.text} ${index + 1}：` : `${field.text}：`;
    const labelOf = (name: string, fallback: string) => `${where}${children.get(name)?.text ?? fallback}`;
    const num = (name: keyof typeof UNIT_LIMITS, fallback: number) => {
      const limit = UNIT_LIMITS[name];
      return numberIn(unit[name] ?? fallback, labelOf(name, limit.label), limit.min, limit.max, children.get(name));
    };
    const inputImageFileId = text(unit.inputImageFileId, labelOf('inputImageFileId', '参考图'));
    await ctx.requireOwnFile(inputImageFileId, labelOf('inputImageFileId', '参考图'));
    const moduleField = children.get('controlnetModule');
    const controlnetModule = text(unit.controlnetModule ?? 'none', labelOf('controlnetModule', '预处理器'));
    if (moduleField) inOptions(controlnetModule, moduleField, labelOf('controlnetModule', '预处理器'));
    const controlnetModel = text(unit.controlnetModel, labelOf('controlnetModel', '控制模型'));
    const mode = Number(unit.controlMode ?? 0);
    if (mode !== 0 && mode !== 1 && mode !== 2) throw fail(`${labelOf('controlMode', '控制模式')}的取值不在可选范围内`);
    const guidanceStart = num('guidanceStart', 0);
    const guidanceEnd = num('guidanceEnd', 1);
    if (guidanceStart > guidanceEnd) throw fail(`${where}介入时机不能晚于退出时机`);
    checked.push({
      controlnetModule,
      controlnetModel,
      inputImageFileId,
      weight: num('weight', 1),
      guidanceStart,
      guidanceEnd,
      processorRes: Math.round(num('processorRes', 512)),
      thresholdA: num('thresholdA', 100),
      thresholdB: num('thresholdB', 200),
      controlMode: mode,
    });
  }
  const imageField = children.get('inputImageFileId');
  // A form that shows the reference upload depends on it: running without one would only draw from the prompt.
  if (checked.length === 0 && isEditable(field) && imageField && imageField.show !== false) {
    throw fail(`请先上传${field.text}的${imageField.text}`);
  }
  return checked;
}
