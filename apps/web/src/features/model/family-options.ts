import { MODEL_FAMILIES } from '@huafang/contracts';

/** 基础模型类型 choices, in the contract's order (SD1.5 first). */
export const FAMILY_OPTIONS = MODEL_FAMILIES.map((family) => ({ value: family, label: family }));
