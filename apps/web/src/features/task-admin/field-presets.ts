import {
  CONTROLNET_FIELD_NAMES,
  controlNetUnit,
  type FormConfigItem,
  type FormFieldType,
  loraField,
  OPTION_SOURCES,
  PARAMETER_FIELD_PRESETS,
  PARAMETER_NAMES,
} from '@huafang/contracts';
import { CONTROLNETS } from '../form-config/form-values';

export { OPTION_SOURCES };

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

const PARAMETER_PRESETS: Record<string, () => FormConfigItem> = {
  ...PARAMETER_FIELD_PRESETS,
  controlNets: () => buildControlNetUnit(),
  loras: () => loraField(),
};

/** The usual field of a parameter or of a ControlNet unit field, or undefined for other names. */
export function presetField(name: string): FormConfigItem | undefined {
  return PARAMETER_PRESETS[name]?.() ?? buildControlNetUnit().children?.find((child) => child.name === name);
}

/** A ControlNet unit with the canny preprocessor preselected. */
export const buildControlNetUnit = (): FormConfigItem => controlNetUnit();

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
