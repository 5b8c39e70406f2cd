import { CONTROLNET_FIELD_NAMES, type FormConfigItem, type FormFieldType, PARAMETER_NAMES } from '@huafang/contracts';
import { CONTROLNET_MODULE, CONTROLNETS } from '../form-config/form-values';

/** Option sources a select's `url` may name (the server refuses any other on publish). */
export const OPTION_SOURCES = [
  { value: '/api/options/samplers', label: '采样器' },
  { value: '/api/options/sizes', label: '尺寸预设' },
  { value: '/api/options/models', label: '可用模型' },
  { value: '/api/options/controlnet/modules', label: 'ControlNet 预处理器' },
  { value: '/api/options/controlnet/models', label: 'ControlNet 模型' },
] as const;

const CONTROLNET_MODULES_URL = '/api/options/controlnet/modules';

export const FIELD_TYPE_LABELS: Record<FormFieldType, string> = {
  select: '下拉选择',
  radio: '单选',
  input: '单行文本',
  textarea: '多行文本',
  number: '数字',
  slider: '滑块',
  switch: '开关',
  image: '图片上传',
  collapse: '折叠分组',
};

type FieldSpec = Omit<FormConfigItem, 'show' | 'disabled' | 'checked'> & Partial<FormConfigItem>;

export function field(spec: FieldSpec): FormConfigItem {
  return { show: true, disabled: false, checked: false, ...spec };
}

/** The usual field of each shared parameter, so a designer starts from working ranges. */
const PARAMETER_PRESETS: Record<string, () => FormConfigItem> = {
  modelId: () => field({ type: 'select', name: 'modelId', text: '模型', url: '/api/options/models' }),
  sampler: () =>
    field({ type: 'select', name: 'sampler', text: '采样器', url: '/api/options/samplers', value: 'Euler a' }),
  steps: () => field({ type: 'slider', name: 'steps', text: '采样步数', min: 1, max: 50, step: 1, value: 20 }),
  cfgScale: () =>
    field({ type: 'slider', name: 'cfgScale', text: '提示词相关性', min: 1, max: 20, step: 0.5, value: 7 }),
  width: () => field({ type: 'number', name: 'width', text: '宽度', min: 256, max: 1536, step: 64, value: 512 }),
  height: () => field({ type: 'number', name: 'height', text: '高度', min: 256, max: 1536, step: 64, value: 512 }),
  seed: () => field({ type: 'number', name: 'seed', text: '随机种子', min: -1, max: 4294967295, value: -1 }),
  batchSize: () => field({ type: 'slider', name: 'batchSize', text: '生成数量', min: 1, max: 4, step: 1, value: 1 }),
  denoisingStrength: () =>
    field({ type: 'slider', name: 'denoisingStrength', text: '重绘幅度', min: 0, max: 1, step: 0.05, value: 0.5 }),
  initImageFileId: () => field({ type: 'image', name: 'initImageFileId', text: '上传图片' }),
  controlNets: () => buildControlNetUnit(),
};

/** The usual field of a parameter or of a ControlNet unit field, or undefined for other names. */
export function presetField(name: string): FormConfigItem | undefined {
  return PARAMETER_PRESETS[name]?.() ?? buildControlNetUnit().children?.find((child) => child.name === name);
}

const CONTROL_MODE_OPTIONS = [
  { label: '均衡', value: 0 },
  { label: '更注重提示词', value: 1 },
  { label: '更注重控制图', value: 2 },
];

/**
 * A ControlNet unit: a `controlNets` collapse with every tuning field. /draw shows the core fields (module,
 * model, reference image) always and the others only when the chosen module's fromConfig lists them.
 */
export function buildControlNetUnit(): FormConfigItem {
  return field({
    type: 'collapse',
    name: CONTROLNETS,
    text: 'ControlNet 控制',
    children: [
      field({ type: 'select', name: CONTROLNET_MODULE, text: '预处理器', url: CONTROLNET_MODULES_URL, value: 'canny' }),
      field({ type: 'select', name: 'controlnetModel', text: '控制模型', url: '/api/options/controlnet/models' }),
      field({ type: 'image', name: 'inputImageFileId', text: '参考图' }),
      field({ type: 'slider', name: 'weight', text: '控制权重', min: 0, max: 2, step: 0.05, value: 1 }),
      field({ type: 'slider', name: 'guidanceStart', text: '介入时机', min: 0, max: 1, step: 0.05, value: 0 }),
      field({ type: 'slider', name: 'guidanceEnd', text: '退出时机', min: 0, max: 1, step: 0.05, value: 1 }),
      field({ type: 'number', name: 'processorRes', text: '预处理分辨率', min: 64, max: 2048, step: 64, value: 512 }),
      field({ type: 'slider', name: 'thresholdA', text: '低阈值', min: 1, max: 255, step: 1, value: 100 }),
      field({ type: 'slider', name: 'thresholdB', text: '高阈值', min: 1, max: 255, step: 1, value: 200 }),
      field({
        type: 'radio',
        name: 'controlMode',
        text: '控制模式',
        value: 0,
        option: CONTROL_MODE_OPTIONS.map((option) => ({ ...option })),
      }),
    ],
  });
}

/** Chinese names of the parameters and ControlNet unit fields, shown beside their English names. */
export const PARAMETER_LABELS: Record<string, string> = Object.fromEntries(
  [...Object.values(PARAMETER_PRESETS).map((build) => build()), ...(buildControlNetUnit().children ?? [])].map(
    (item) => [item.name, item.text],
  ),
);

export function hasField(items: FormConfigItem[], name: string): boolean {
  return items.some((item) => item.name === name);
}

/** Where a field list sits: a step's top level, inside a plain collapse (高级设置), or inside a ControlNet unit. */
export type DesignerLevel = 'step' | 'group' | 'controlNets';

/** The parameter names a field at this level is expected to write. */
export function nameSuggestions(level: DesignerLevel): string[] {
  if (level === 'controlNets') return [...CONTROLNET_FIELD_NAMES];
  return PARAMETER_NAMES.filter((name) => level === 'step' || name !== CONTROLNETS);
}

export function childLevel(item: Pick<FormConfigItem, 'name'>): DesignerLevel {
  return item.name === CONTROLNETS ? 'controlNets' : 'group';
}
