import type { FormConfigItem, FormOption, Parameters } from '@huafang/contracts';

/** The collapse whose children describe one ControlNet unit; its value is a list of units. */
export const CONTROLNETS = 'controlNets';
export const CONTROLNET_MODULE = 'controlnetModule';
/** Shown for every module (screens.md: 上传参考图, 预处理器, 模型); the other unit fields come from fromConfig. */
const CONTROLNET_CORE_FIELDS: ReadonlySet<string> = new Set([CONTROLNET_MODULE, 'controlnetModel', 'inputImageFileId']);

export type ControlNetUnit = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fieldDefault(item: FormConfigItem): unknown {
  if (item.value !== undefined) return item.value;
  return item.type === 'switch' ? item.checked : undefined;
}

function defaultsOf(items: FormConfigItem[]): Parameters {
  const values: Parameters = {};
  for (const item of items) {
    if (item.type === 'collapse' && item.name !== CONTROLNETS) Object.assign(values, defaultsOf(item.children ?? []));
    else if (item.type !== 'collapse') {
      const value = fieldDefault(item);
      if (value !== undefined) values[item.name] = value;
    }
  }
  return values;
}

/** The ControlNet units of a parameter set; anything that is not a list of objects counts as none. */
export function readControlNetUnits(parameters: Parameters): ControlNetUnit[] {
  const units = parameters[CONTROLNETS];
  return Array.isArray(units) ? units.filter(isRecord) : [];
}

/**
 * A step's starting values: its saved parameters over the defaults of its form config. Plain collapses (高级设置)
 * group top-level parameters; controlNets holds units, each completed with the unit defaults, at least one.
 */
export function initialParameters(items: FormConfigItem[], parameters: Parameters): Parameters {
  const values: Parameters = { ...defaultsOf(items), ...parameters };
  const controlNets = items.find((item) => item.type === 'collapse' && item.name === CONTROLNETS);
  if (controlNets) {
    const unitDefaults = defaultsOf(controlNets.children ?? []);
    const saved = readControlNetUnits(parameters);
    values[CONTROLNETS] = (saved.length > 0 ? saved : [{}]).map((unit) => ({ ...unitDefaults, ...unit }));
  }
  return values;
}

/** fromConfig is a JSON list of field names; a missing or broken one lists nothing. */
export function parseFromConfig(fromConfig: string | undefined): string[] {
  if (!fromConfig) return [];
  try {
    const names: unknown = JSON.parse(fromConfig);
    return Array.isArray(names) ? names.filter((name): name is string => typeof name === 'string') : [];
  } catch {
    return [];
  }
}

/** The unit fields to draw for the chosen module: the core fields, then only those its fromConfig lists. */
export function visibleControlNetFields(children: FormConfigItem[], module: FormOption | undefined): FormConfigItem[] {
  const listed = new Set(parseFromConfig(module?.fromConfig));
  return children.filter((child) => child.show && (CONTROLNET_CORE_FIELDS.has(child.name) || listed.has(child.name)));
}
