import { controlNetUnit, type FormConfigItem, PARAMETER_FIELD_PRESETS, type PromptGroupItem } from '@huafang/contracts';
import { newId } from '../platform/ids.js';

/** The demo templates' fields: the shared presets, with the few values a template changes. */
const preset = (name: string): FormConfigItem => PARAMETER_FIELD_PRESETS[name]!();

export const modelField = (modelTabList: string[]) => ({ ...preset('modelId'), modelTabList });
export const seedField = () => preset('seed');
export const denoiseField = (value = 0.5) => ({ ...preset('denoisingStrength'), value });
export const initImageField = (text = '上传图片') => ({ ...preset('initImageFileId'), text });
export const controlNetField = (module: string, model: string, text: string) => controlNetUnit({ module, model, text });

/** The usual text-to-image form: model, size, count, steps, CFG, sampler, seed. */
export const txt2imgForm = (modelTabList: string[]): FormConfigItem[] => [
  modelField(modelTabList),
  ...['width', 'height', 'batchSize', 'steps', 'cfgScale', 'sampler', 'seed'].map(preset),
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
