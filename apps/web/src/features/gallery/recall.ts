import type { FormConfigItem, Parameters, PromptGroupItem, PublicWorkDetail, WorkDetail } from '@huafang/contracts';
import { CONTROLNETS } from '../form-config/form-values';

/** What 再次生成 (own work) and 做同款 (public work) put back: the public detail leaves the prompt fields null when hidden. */
export interface RecallSource {
  templateId: string | null;
  stepIndex: number;
  prompt: string | null;
  negativePrompt: string | null;
  promptGroup: PromptGroupItem[] | null;
  negativePromptGroup: PromptGroupItem[] | null;
  parameters: Parameters | null;
  seed: number | null;
  /** Images the work was made from (init image, ControlNet references) are the author's uploads: only theirs recall them. */
  ownWork: boolean;
}

/** Parameters naming uploaded files. */
const FILE_PARAMETERS: ReadonlySet<string> = new Set(['initImageFileId', CONTROLNETS]);

/** The position in the template's steps of the step with `stepIndex`; the first step when it no longer exists. */
export function stepKeyOf(steps: { stepIndex: number }[], stepIndex: number): number {
  const key = steps.findIndex((step) => step.stepIndex === stepIndex);
  return Math.max(key, 0);
}

/**
 * The step a recall opens: the work's own step, unless that step draws on the previous step's result (it only
 * runs through 下一步), then the nearest earlier step that runs from 生成.
 */
export function runnableStepKey(steps: { stepIndex: number; useParentImage: boolean }[], stepIndex: number): number {
  let key = stepKeyOf(steps, stepIndex);
  while (key > 0 && steps[key]?.useParentImage) key -= 1;
  return key;
}

/** The parameter names a form writes: its fields, the fields of plain collapses (高级设置), and controlNets itself. */
export function formParameterNames(items: FormConfigItem[]): Set<string> {
  const names = new Set<string>();
  for (const item of items) {
    if (item.type !== 'collapse' || item.name === CONTROLNETS) names.add(item.name);
    else for (const name of formParameterNames(item.children ?? [])) names.add(name);
  }
  return names;
}

/**
 * The form values after recalling a work: its parameters over the current ones, limited to the names the form
 * knows (a work of an older template version may carry more), one image, and the work's own seed.
 */
export function recallParameters(
  formConfig: FormConfigItem[],
  current: Parameters,
  recalled: Parameters,
  options: { seed: number | null; ownWork: boolean },
): Parameters {
  const known = formParameterNames(formConfig);
  for (const name of Object.keys(current)) known.add(name);
  const next: Parameters = { ...current };
  for (const [name, value] of Object.entries(recalled)) {
    if (!known.has(name) || value === undefined || value === null) continue;
    if (!options.ownWork && FILE_PARAMETERS.has(name)) continue;
    next[name] = value;
  }
  if (known.has('seed') && options.seed !== null) next.seed = options.seed;
  if (known.has('batchSize')) next.batchSize = 1;
  return next;
}

/**
 * What a work carries into a recall, the same in the owner's and the public detail: with the words as the author
 * wrote them when the model read them translated (sourcePrompt), which the form takes back.
 */
type RecalledWork = Omit<RecallSource, 'seed' | 'ownWork'> & {
  sourcePrompt?: string | null;
  sourceNegativePrompt?: string | null;
};

function recallSource(work: RecalledWork, seed: number | null, ownWork: boolean): RecallSource {
  const { templateId, stepIndex, promptGroup, negativePromptGroup, parameters } = work;
  const prompt = work.sourcePrompt ?? work.prompt;
  const negativePrompt = work.sourceNegativePrompt ?? work.negativePrompt;
  return { templateId, stepIndex, prompt, negativePrompt, promptGroup, negativePromptGroup, parameters, seed, ownWork };
}

/** 再次生成: everything of the user's own work, its images included. */
export function recallFromWork(work: WorkDetail): RecallSource {
  return recallSource(work, work.seed, true);
}

/** 做同款: what the author shows (the seed is among the parameters); hidden prompts recall the template alone. */
export function recallFromPublic(work: PublicWorkDetail): RecallSource {
  return recallSource(work, null, false);
}

/** A free creation with hidden prompts leaves nothing to start from. */
export function canRecall(source: RecallSource): boolean {
  return source.templateId !== null || source.prompt !== null;
}
