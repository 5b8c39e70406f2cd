import type { GenerateBody, GeneratedImage } from '@huafang/contracts';
import { useCallback } from 'react';
import { toast } from '../../services/notices';
import { useDraw } from '../../stores/draw';
import { missingImage } from '../form-config/required-images';
import { type FinishedRun, nextTemplateStep } from '../generate/generation-state';
import { MADE_SAME_NOTICE, madeSame } from '../generate/make-same';
import { useGeneration } from '../generate/use-generation';

/** Steps that draw on a chosen result only run through 下一步, never from the 生成 button. */
const PARENT_IMAGE_HINT = '这一步使用上一步的结果图：请在结果中点「下一步」运行';

/** /draw's generation: the run the current step tab describes, and 下一步 on a result. */
export function useDrawGeneration() {
  const templateId = useDraw((state) => state.templateId);
  const taskSteps = useDraw((state) => state.taskSteps);
  const stepKey = useDraw((state) => state.stepKey);
  const stepIndex = useDraw((state) => state.stepIndex);
  const promptGroup = useDraw((state) => state.curPromptGroup);
  const negativePromptGroup = useDraw((state) => state.curNegativePromptGroup);
  const parameters = useDraw((state) => state.curParameters);
  const advanceToStep = useDraw((state) => state.advanceToStep);

  const nextStepOf = useCallback(
    (runTemplateId: string | null, runStepIndex: number) =>
      runTemplateId !== null && runTemplateId === templateId ? nextTemplateStep(taskSteps, runStepIndex) : null,
    [templateId, taskSteps],
  );
  const generation = useGeneration({ store: useDraw, scope: 'template', nextStepOf });

  const body: GenerateBody | null = templateId
    ? { templateId, stepIndex, promptGroup, negativePromptGroup, parameters }
    : null;
  const formConfig = useDraw((state) => state.formConfig);
  const step = taskSteps[stepKey];
  // The server refuses these too (nothing queued or charged); here 生成 waits for the image instead.
  const blockedReason = !step
    ? null
    : step.useParentImage
      ? PARENT_IMAGE_HINT
      : missingImage(formConfig, parameters, step);

  /** Opens the next step's tab (its edits apply) and runs it on the chosen image. */
  const runNextStep = (run: FinishedRun, image: GeneratedImage) => {
    const key = taskSteps.findIndex((step) => step.id === run.nextStep?.id);
    if (key < 0) {
      toast('模板的步骤已变化，请重新生成后再进行下一步', 'warning');
      return;
    }
    advanceToStep(key);
    const next = useDraw.getState();
    generation.runStep({
      templateId: run.templateId,
      body: {
        generateId: run.generateId,
        imageWorkId: image.workId,
        stepIndex: next.stepIndex,
        promptGroup: next.curPromptGroup,
        negativePromptGroup: next.curNegativePromptGroup,
        parameters: next.curParameters,
      },
    });
  };

  /** 做同款 on a result: its step's tab (results stay), its prompts, parameters and seed in the form. */
  const makeSame = (run: FinishedRun, image: GeneratedImage) => {
    const key = taskSteps.findIndex((item) => item.stepIndex === run.stepIndex);
    if (key >= 0 && key !== stepKey) advanceToStep(key);
    const state = useDraw.getState();
    const same = madeSame(generation.requestOf(run.stepId), image, state.formConfig, state.curParameters);
    if (same.promptGroup) state.setPromptGroups(same.promptGroup, same.negativePromptGroup);
    state.setCurParameters(same.parameters);
    toast(MADE_SAME_NOTICE(image.seed), 'success');
  };

  const emptyHint = !templateId
    ? '选择模板后，调整提示词和参数，点「生成」'
    : step?.useParentImage
      ? '这一步在上一步的结果图上运行：在结果中点「下一步」'
      : '调整提示词和参数后点「生成」，结果会显示在这里';

  return { generation, body, blockedReason, runNextStep, makeSame, emptyHint };
}
