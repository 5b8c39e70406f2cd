import type { Parameters } from '@huafang/contracts';

export type DefaultInputKind = 'model' | 'sampler' | 'number';

export interface DefaultField {
  name: string;
  kind: DefaultInputKind;
  min?: number;
  max?: number;
  step?: number;
}

/** The step parameters an admin sets most, each with a fitting input (labels: PARAMETER_LABELS). */
export const DEFAULT_FIELDS: DefaultField[] = [
  { name: 'modelId', kind: 'model' },
  { name: 'sampler', kind: 'sampler' },
  { name: 'steps', kind: 'number', min: 1, max: 150, step: 1 },
  { name: 'cfgScale', kind: 'number', min: 1, max: 30, step: 0.5 },
  { name: 'width', kind: 'number', min: 64, max: 2048, step: 64 },
  { name: 'height', kind: 'number', min: 64, max: 2048, step: 64 },
  { name: 'seed', kind: 'number', min: -1, step: 1 },
  { name: 'batchSize', kind: 'number', min: 1, max: 8, step: 1 },
  { name: 'denoisingStrength', kind: 'number', min: 0, max: 1, step: 0.05 },
];

const KNOWN = new Set(DEFAULT_FIELDS.map((field) => field.name));

/** Sets one parameter; an empty value removes it, so the form config's own default applies. */
export function setParameter(parameters: Parameters, name: string, value: unknown): Parameters {
  const { [name]: _previous, ...rest } = parameters;
  return value === undefined || value === null || value === '' ? rest : { ...rest, [name]: value };
}

/** The parameters without a dedicated input, edited as key and value. */
export function extraParameterNames(parameters: Parameters): string[] {
  return Object.keys(parameters).filter((name) => !KNOWN.has(name));
}

/** What the value box shows: text as it is, anything else as JSON. */
export function formatLooseValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Reads a typed value: numbers, true/false, lists and objects as JSON; anything else stays text. */
export function parseLooseValue(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return trimmed;
  }
}
