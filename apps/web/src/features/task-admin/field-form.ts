import type { FormConfigItem, FormFieldType, FormOption } from '@huafang/contracts';

export type OptionSourceKind = 'option' | 'url';

/** An option row as the editor holds it: the value as typed, the module's shown fields as a list. */
export interface OptionRow {
  label: string;
  value: string;
  moduleName?: string;
  fromConfig?: string[];
}

/** The field drawer's form. `children` are edited beside it, not in the form. */
export interface FieldFormValues {
  type: FormFieldType;
  name: string;
  text: string;
  /** select and radio: as typed; number and slider: a number; input and textarea: text. */
  value?: string | number | null;
  source: OptionSourceKind;
  url?: string;
  option: OptionRow[];
  /** A cleared number box reads null. */
  min?: number | null;
  max?: number | null;
  step?: number | null;
  show: boolean;
  disabled: boolean;
  checked: boolean;
  modelTabList: string[];
}

export const CHOICE_TYPES: ReadonlySet<FormFieldType> = new Set(['select', 'radio']);
export const NUMERIC_TYPES: ReadonlySet<FormFieldType> = new Set(['number', 'slider']);
export const TEXT_TYPES: ReadonlySet<FormFieldType> = new Set(['input', 'textarea']);

/** A typed option value stays text unless it is a plain number (controlMode 0/1/2). */
export function parseOptionValue(text: string): string | number {
  const trimmed = text.trim();
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

function parseNames(fromConfig: string | undefined): string[] | undefined {
  if (fromConfig === undefined) return undefined;
  try {
    const names: unknown = JSON.parse(fromConfig);
    return Array.isArray(names) ? names.filter((name): name is string => typeof name === 'string') : [];
  } catch {
    return [];
  }
}

function rowOf(option: FormOption): OptionRow {
  return {
    label: option.label,
    value: String(option.value),
    ...(option.moduleName !== undefined ? { moduleName: option.moduleName } : {}),
    ...(option.fromConfig !== undefined ? { fromConfig: parseNames(option.fromConfig) } : {}),
  };
}

/** Option rows to edit, e.g. copied from what an option source answers so they can be adjusted. */
export function optionRows(options: FormOption[]): OptionRow[] {
  return options.map(rowOf);
}

function optionOf(row: OptionRow): FormOption {
  return {
    label: row.label.trim(),
    value: parseOptionValue(row.value),
    ...(row.moduleName ? { moduleName: row.moduleName } : {}),
    ...(row.fromConfig ? { fromConfig: JSON.stringify(row.fromConfig) } : {}),
  };
}

function formValueOf(item: FormConfigItem): string | number | undefined {
  if (CHOICE_TYPES.has(item.type) && (typeof item.value === 'string' || typeof item.value === 'number')) {
    return String(item.value);
  }
  if (NUMERIC_TYPES.has(item.type) && typeof item.value === 'number') return item.value;
  if (TEXT_TYPES.has(item.type) && typeof item.value === 'string') return item.value;
  return undefined;
}

export function fieldFormValues(item: FormConfigItem): FieldFormValues {
  return {
    type: item.type,
    name: item.name,
    text: item.text,
    value: formValueOf(item),
    source: item.url ? 'url' : 'option',
    url: item.url,
    option: optionRows(item.option ?? []),
    min: item.min,
    max: item.max,
    step: item.step,
    show: item.show,
    disabled: item.disabled,
    checked: item.checked,
    modelTabList: item.modelTabList ?? [],
  };
}

function itemValueOf(values: FieldFormValues): unknown {
  const { type, value } = values;
  if (value === undefined || value === null || value === '') return undefined;
  if (CHOICE_TYPES.has(type)) return parseOptionValue(String(value));
  if (NUMERIC_TYPES.has(type)) return typeof value === 'number' ? value : undefined;
  if (TEXT_TYPES.has(type)) return String(value);
  return undefined;
}

const numberOrNone = (value: number | null | undefined) => (typeof value === 'number' ? value : undefined);

/**
 * The field the drawer describes, carrying only what it uses: options or url only for choices (whichever source
 * is chosen), ranges only for numbers, model tabs only for modelId, children only for groups.
 */
export function fieldFromForm(values: FieldFormValues, children: FormConfigItem[]): FormConfigItem {
  const choice = CHOICE_TYPES.has(values.type);
  const numeric = NUMERIC_TYPES.has(values.type);
  const name = values.name.trim();
  const value = itemValueOf(values);
  const url = choice && values.source === 'url' ? values.url : undefined;
  const [min, max, step] = numeric ? [values.min, values.max, values.step].map(numberOrNone) : [];
  return {
    type: values.type,
    name,
    text: values.text.trim(),
    show: values.show,
    disabled: values.disabled,
    checked: values.checked,
    ...(value === undefined ? {} : { value }),
    ...(url ? { url } : {}),
    ...(choice && values.source === 'option' ? { option: values.option.map(optionOf) } : {}),
    ...(min === undefined ? {} : { min }),
    ...(max === undefined ? {} : { max }),
    ...(step === undefined ? {} : { step }),
    ...(name === 'modelId' && values.modelTabList.length > 0 ? { modelTabList: values.modelTabList } : {}),
    ...(values.type === 'collapse' ? { children } : {}),
  };
}
