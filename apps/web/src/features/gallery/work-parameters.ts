import { GENERATE_MODE_LABELS, type GenerateMode, type Parameters } from '@huafang/contracts';
import { readControlNetUnits } from '../form-config/form-values';

export interface ParameterRow {
  key: string;
  label: string;
  value: string;
}

/** The parameters worth showing in a work's detail, in the order of the /draw form. */
const SHOWN: { key: string; label: string }[] = [
  { key: 'modelId', label: '模型' },
  { key: 'mode', label: '生成方式' },
  { key: 'size', label: '尺寸' },
  { key: 'steps', label: '采样步数' },
  { key: 'cfgScale', label: '提示词相关性' },
  { key: 'sampler', label: '采样器' },
  { key: 'seed', label: '随机种子' },
  { key: 'denoisingStrength', label: '重绘幅度' },
  { key: 'upscaleFactor', label: '放大倍数' },
  { key: 'controlNets', label: 'ControlNet' },
];

function text(value: unknown): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'string') return value.trim() || null;
  return null;
}

interface WorkShape {
  width: number;
  height: number;
  mode: GenerateMode;
}

/** Every work stores denoisingStrength and upscaleFactor; they only mean something in the modes that use them. */
function usedInMode(key: string, mode: GenerateMode): boolean {
  if (key === 'upscaleFactor') return mode === 'upscale';
  if (key === 'denoisingStrength') return mode !== 'txt2img';
  return true;
}

function cellText(key: string, parameters: Parameters, work: WorkShape): string | null {
  if (!usedInMode(key, work.mode)) return null;
  switch (key) {
    case 'mode':
      return GENERATE_MODE_LABELS[work.mode];
    case 'size':
      return `${work.width} × ${work.height}`;
    case 'upscaleFactor': {
      const factor = text(parameters.upscaleFactor);
      return factor ? `${factor} 倍` : null;
    }
    case 'controlNets': {
      const units = readControlNetUnits(parameters).filter((unit) => text(unit.controlnetModule));
      return units.length > 0 ? units.map((unit) => text(unit.controlnetModule)).join('、') : null;
    }
    default:
      return text(parameters[key]);
  }
}

/**
 * The rows of a work's parameter table; absent, empty or unused values are left out. The size is the image's
 * own: an upscale step's parameters hold the size before upscaling.
 */
export function parameterRows(parameters: Parameters, work: WorkShape): ParameterRow[] {
  const rows: ParameterRow[] = [];
  for (const { key, label } of SHOWN) {
    const value = cellText(key, parameters, work);
    if (value !== null) rows.push({ key, label, value });
  }
  return rows;
}
