import type { GenerateBody } from '@huafang/contracts';
import { useChuangyi } from '../../stores/chuangyi';
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
  return { generation, body, blockedReason };
}
