import {
  type FormConfigItem,
  type GenerateBody,
  type GeneratedImage,
  type Parameters,
  type PromptGroupItem,
  promptGroupSchema,
} from '@huafang/contracts';
import { showsField } from '../draw/init-image';
import type { RunRequest } from './use-generation';

/** What 做同款 on a result puts back into the form. */
export interface MadeSame {
  /** The run's prompt groups, when its request is known (this visit). */
  promptGroup: PromptGroupItem[] | null;
  negativePromptGroup: PromptGroupItem[];
  parameters: Parameters;
}

function sentBody(request: RunRequest | null): Partial<GenerateBody> | null {
  if (!request) return null;
  return request.kind === 'generate' ? request.body : request.step.body;
}

/**
 * The run's prompts and parameters over the current ones, and the image's own seed where the form has a seed
 * field: generating again reproduces the picture, and any edit varies it.
 */
export function madeSame(
  request: RunRequest | null,
  image: GeneratedImage,
  formConfig: FormConfigItem[],
  current: Parameters,
): MadeSame {
  const body = sentBody(request);
  const parameters: Parameters = { ...current, ...(body?.parameters ?? {}) };
  if (showsField(formConfig, 'seed')) parameters.seed = image.seed;
  // The request holds the groups as sent (input type); the form keeps them with their defaults filled in.
  return {
    promptGroup: body?.promptGroup ? promptGroupSchema.parse(body.promptGroup) : null,
    negativePromptGroup: promptGroupSchema.parse(body?.negativePromptGroup ?? []),
    parameters,
  };
}

export const MADE_SAME_NOTICE = (seed: number) => `已把这张图的提示词、参数和种子 ${seed} 填入表单，修改后点「生成」`;
