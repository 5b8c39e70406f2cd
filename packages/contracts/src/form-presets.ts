import type { FormConfigItem, FormOption } from './form-config.js';

/** Option sources a form field's `url` may name; publishing refuses any other. */
export const OPTION_SOURCES = [
  { value: '/api/options/samplers', label: '采样器' },
  { value: '/api/options/sizes', label: '尺寸预设' },
  { value: '/api/options/models', label: '可用模型' },
  { value: '/api/options/controlnet/modules', label: 'ControlNet 预处理器' },
  { value: '/api/options/controlnet/models', label: 'ControlNet 模型' },
] as const;

type FieldSpec = Omit<FormConfigItem, 'show' | 'disabled' | 'checked'> & Partial<FormConfigItem>;

/** A form field shown, enabled and unchecked unless the spec says otherwise. */
export function formField(spec: FieldSpec): FormConfigItem {
  return { show: true, disabled: false, checked: false, ...spec };
}

/** The usual field of each shared parameter, with working ranges; the demo seed and the admin designer start here. */
export const PARAMETER_FIELD_PRESETS: Record<string, () => FormConfigItem> = {
  modelId: () => formField({ type: 'select', name: 'modelId', text: '模型', url: '/api/options/models' }),
  sampler: () =>
    formField({ type: 'select', name: 'sampler', text: '采样器', url: '/api/options/samplers', value: 'Euler a' }),
  steps: () => formField({ type: 'slider', name: 'steps', text: '采样步数', min: 1, max: 50, step: 1, value: 20 }),
  cfgScale: () =>
    formField({ type: 'slider', name: 'cfgScale', text: '提示词相关性', min: 1, max: 20, step: 0.5, value: 7 }),
  width: () => formField({ type: 'number', name: 'width', text: '宽度', min: 256, max: 1536, step: 64, value: 512 }),
  height: () => formField({ type: 'number', name: 'height', text: '高度', min: 256, max: 1536, step: 64, value: 512 }),
  seed: () => formField({ type: 'number', name: 'seed', text: '随机种子', min: -1, max: 4294967295, value: -1 }),
  batchSize: () =>
    formField({ type: 'slider', name: 'batchSize', text: '生成数量', min: 1, max: 4, step: 1, value: 1 }),
  denoisingStrength: () =>
    formField({ type: 'slider', name: 'denoisingStrength', text: '重绘幅度', min: 0, max: 1, step: 0.05, value: 0.5 }),
  initImageFileId: () => formField({ type: 'image', name: 'initImageFileId', text: '上传图片' }),
};

/**
 * A ControlNet unit: a `controlNets` collapse with every tuning field. /draw shows the core fields (module,
 * model, reference image) always and the others only when the chosen module's fromConfig lists them.
 */
export function controlNetUnit(options: { module?: string; model?: string; text?: string } = {}): FormConfigItem {
  return formField({
    type: 'collapse',
    name: 'controlNets',
    text: options.text ?? 'ControlNet 控制',
    children: [
      formField({
        type: 'select',
        name: 'controlnetModule',
        text: '预处理器',
        url: '/api/options/controlnet/modules',
        value: options.module ?? 'canny',
      }),
      formField({
        type: 'select',
        name: 'controlnetModel',
        text: '控制模型',
        url: '/api/options/controlnet/models',
        ...(options.model ? { value: options.model } : {}),
      }),
      formField({ type: 'image', name: 'inputImageFileId', text: '参考图' }),
      formField({ type: 'slider', name: 'weight', text: '控制权重', min: 0, max: 2, step: 0.05, value: 1 }),
      formField({ type: 'slider', name: 'guidanceStart', text: '介入时机', min: 0, max: 1, step: 0.05, value: 0 }),
      formField({ type: 'slider', name: 'guidanceEnd', text: '退出时机', min: 0, max: 1, step: 0.05, value: 1 }),
      formField({
        type: 'number',
        name: 'processorRes',
        text: '预处理分辨率',
        min: 64,
        max: 2048,
        step: 64,
        value: 512,
      }),
      formField({ type: 'slider', name: 'thresholdA', text: '低阈值', min: 1, max: 255, step: 1, value: 100 }),
      formField({ type: 'slider', name: 'thresholdB', text: '高阈值', min: 1, max: 255, step: 1, value: 200 }),
      formField({
        type: 'radio',
        name: 'controlMode',
        text: '控制模式',
        value: 0,
        option: [
          { label: '均衡', value: 0 },
          { label: '更注重提示词', value: 1 },
          { label: '更注重控制图', value: 2 },
        ],
      }),
    ],
  });
}

/**
 * The LoRA styles of a step: `value` the LoRAs it presets (`LoraUse[]`), `option` the LoRAs a user may add
 * (`{label, value: loraId}`; none: any enabled LoRA that fits the model's family).
 */
export function loraField(options: { preset?: { loraId: string; weight: number }[]; allowed?: FormOption[] } = {}) {
  return formField({
    type: 'select',
    name: 'loras',
    text: 'LoRA 风格',
    value: options.preset ?? [],
    ...(options.allowed?.length ? { option: options.allowed } : {}),
  });
}

/** 自由创作 (/chuangyi, templateId null): the fields a user sets without a template, checked like a step's. */
export const FREE_CREATION_FORM: FormConfigItem[] = [
  ...['modelId', 'width', 'height', 'steps', 'cfgScale', 'sampler', 'seed', 'batchSize'].map((name) =>
    PARAMETER_FIELD_PRESETS[name]!(),
  ),
  loraField(),
];
