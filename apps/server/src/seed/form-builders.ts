import type { FormConfigItem, PromptGroupItem } from '@huafang/contracts';
import { newId } from '../platform/ids.js';

/** Building blocks of the demo templates' form config: the fields a Chinese drawing site shows. */
const field = (
  item: Omit<FormConfigItem, 'show' | 'disabled' | 'checked'> & Partial<FormConfigItem>,
): FormConfigItem => ({
  show: true,
  disabled: false,
  checked: false,
  ...item,
});

export const modelField = (modelTabList: string[]) =>
  field({ type: 'select', name: 'modelId', text: '模型', url: '/api/options/models', modelTabList });
export const widthField = () =>
  field({ type: 'number', name: 'width', text: '宽度', min: 256, max: 1536, step: 64, value: 512 });
export const heightField = () =>
  field({ type: 'number', name: 'height', text: '高度', min: 256, max: 1536, step: 64, value: 512 });
export const batchField = () =>
  field({ type: 'slider', name: 'batchSize', text: '生成数量', min: 1, max: 4, step: 1, value: 1 });
export const stepsField = () =>
  field({ type: 'slider', name: 'steps', text: '采样步数', min: 1, max: 50, step: 1, value: 20 });
export const cfgField = () =>
  field({ type: 'slider', name: 'cfgScale', text: '提示词相关性', min: 1, max: 20, step: 0.5, value: 7 });
export const samplerField = () =>
  field({ type: 'select', name: 'sampler', text: '采样器', url: '/api/options/samplers', value: 'Euler a' });
export const seedField = () =>
  field({ type: 'number', name: 'seed', text: '随机种子', min: -1, max: 4294967295, value: -1 });
export const denoiseField = (value = 0.5) =>
  field({ type: 'slider', name: 'denoisingStrength', text: '重绘幅度', min: 0, max: 1, step: 0.05, value });
export const initImageField = (text = '上传图片') => field({ type: 'image', name: 'initImageFileId', text });

/** A ControlNet unit: the module's fromConfig decides which of the tuning fields show. */
export const controlNetField = (module: string, model: string) =>
  field({
    type: 'collapse',
    name: 'controlNets',
    text: 'ControlNet 控制',
    children: [
      field({
        type: 'select',
        name: 'controlnetModule',
        text: '预处理器',
        url: '/api/options/controlnet/modules',
        value: module,
      }),
      field({
        type: 'select',
        name: 'controlnetModel',
        text: '控制模型',
        url: '/api/options/controlnet/models',
        value: model,
      }),
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
        option: [
          { label: '均衡', value: 0 },
          { label: '更注重提示词', value: 1 },
          { label: '更注重控制图', value: 2 },
        ],
      }),
    ],
  });

/** The usual text-to-image form: model, size, count, steps, CFG, sampler, seed. */
export const txt2imgForm = (modelTabList: string[]): FormConfigItem[] => [
  modelField(modelTabList),
  widthField(),
  heightField(),
  batchField(),
  stepsField(),
  cfgField(),
  samplerField(),
  seedField(),
];

/** Prompt group items from [中文, english] pairs, as the template's fixed (non-custom) words. */
export const words = (...pairs: [string, string][]): PromptGroupItem[] =>
  pairs.map(([groupName, promptText]) => ({ id: newId(), groupName, promptText, custom: '0' }));

export const COMMON_NEGATIVE = words(
  ['低质量', 'low quality'],
  ['最差质量', 'worst quality'],
  ['模糊', 'blurry'],
  ['水印', 'watermark'],
  ['文字', 'text'],
  ['畸形的手', 'bad hands'],
);
