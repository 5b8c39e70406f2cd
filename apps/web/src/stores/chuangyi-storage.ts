import { FREE_CREATION_FORM, type Parameters, parametersSchema } from '@huafang/contracts';
import { z } from 'zod';
import { initialParameters } from '../features/form-config/form-values';
import { type GenerationTrack, repairGenerationTrack } from '../features/generate/generation-state';

export const CHUANGYI_STORAGE_KEY = 'huafang-chuangyi';

/** The free-creation draft: prompts as typed (split into words only when generating) and the form's values. */
export interface ChuangyiDraft {
  prompt: string;
  negativePrompt: string;
  parameters: Parameters;
}

export const CHUANGYI_DRAFT_DEFAULTS: ChuangyiDraft = {
  prompt: '',
  negativePrompt: '',
  parameters: initialParameters(FREE_CREATION_FORM, {}),
};

const textSchema = z.string().max(2000).catch('');

/** Reads a saved draft field by field, so an old or broken one falls back to defaults instead of crashing. */
export function repairSavedChuangyi(raw: unknown): ChuangyiDraft & GenerationTrack {
  const record = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const parameters = parametersSchema.safeParse(record.parameters);
  return {
    prompt: textSchema.parse(record.prompt),
    negativePrompt: textSchema.parse(record.negativePrompt),
    parameters: parameters.success
      ? initialParameters(FREE_CREATION_FORM, parameters.data)
      : CHUANGYI_DRAFT_DEFAULTS.parameters,
    ...repairGenerationTrack(raw),
  };
}
