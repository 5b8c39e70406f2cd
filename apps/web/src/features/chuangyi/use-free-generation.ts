import { FREE_CREATION_FORM, type GenerateBody, type GeneratedImage } from '@huafang/contracts';
import { toast } from '../../services/notices';
import { useChuangyi } from '../../stores/chuangyi';
import type { FinishedRun } from '../generate/generation-state';
import { MADE_SAME_NOTICE, madeSame } from '../generate/make-same';
import { promptGroupFromText } from '../generate/prompt-text';
import { useGeneration } from '../generate/use-generation';

/** 自由创作's generation: templateId null, the typed prompts split into words. */
export function useFreeGeneration() {
  const prompt = useChuangyi((state) => state.prompt);
  const negativePrompt = useChuangyi((state) => state.negativePrompt);
  const parameters = useChuangyi((state) => state.parameters);
  const generation = useGeneration({ store: useChuangyi, scope: 'free' });

  const promptGroup = promptGroupFromText(prompt, 'free');
  const body: GenerateBody | null =
    promptGroup.length > 0
      ? {
          templateId: null,
          stepIndex: 0,
          promptGroup,
          negativePromptGroup: promptGroupFromText(negativePrompt, 'free-negative'),
          parameters,
        }
      : null;
  const blockedReason = body ? null : '先描述你想要的画面，再点「生成」';

  /** 做同款 on a result: its words and parameters back in the boxes, with its seed. */
  const makeSame = (run: FinishedRun, image: GeneratedImage) => {
    const state = useChuangyi.getState();
    const same = madeSame(generation.requestOf(run.stepId), image, FREE_CREATION_FORM, state.parameters);
    if (same.promptGroup) {
      state.setPrompt(same.promptGroup.map((item) => item.promptText).join('，'));
      state.setNegativePrompt(same.negativePromptGroup.map((item) => item.promptText).join('，'));
    }
    state.setParameters(same.parameters);
    toast(MADE_SAME_NOTICE(image.seed), 'success');
  };

  return { generation, body, blockedReason, makeSame };
}
