import { FREE_CREATION_FORM } from '@huafang/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { taskQueries } from '../../services/task';
import { useChuangyi } from '../../stores/chuangyi';
import { useDraw } from '../../stores/draw';
import { type RecallSource, recallParameters, runnableStepKey } from './recall';

/**
 * Recall (STYLE §16): loads a work's template step, prompt groups and parameters back into /draw, or a free
 * creation's prompts and parameters into /chuangyi, then goes there. A failed template fetch was already shown.
 */
export function useRecall() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const mutation = useMutation({
    mutationFn: async (source: RecallSource) => {
      const options = { seed: source.seed, ownWork: source.ownWork };
      if (!source.templateId) {
        const free = useChuangyi.getState();
        if (source.negativePrompt !== null) free.setNegativePrompt(source.negativePrompt);
        if (source.parameters)
          free.setParameters(recallParameters(FREE_CREATION_FORM, free.parameters, source.parameters, options));
        // /chuangyi takes the prompt from the navigation state, as it does from the home page.
        navigate('/chuangyi', { state: { prompt: source.prompt ?? '' } });
        return;
      }
      const templateId = source.templateId;
      const detail = await queryClient.fetchQuery({
        ...taskQueries.templateDetail(templateId),
        staleTime: 0,
      });
      const draw = useDraw.getState();
      // A work of a later step (高清放大…) opens the step it can run from: the work's words and settings go there.
      draw.loadTemplateDetails(detail, runnableStepKey(detail.taskStepList, source.stepIndex));
      if (source.promptGroup) draw.setPromptGroups(source.promptGroup, source.negativePromptGroup ?? []);
      if (source.parameters) {
        const { formConfig, curParameters } = useDraw.getState();
        draw.setCurParameters(recallParameters(formConfig, curParameters, source.parameters, options));
      }
      navigate('/draw');
    },
  });

  return { recall: mutation.mutate, recalling: mutation.isPending };
}
