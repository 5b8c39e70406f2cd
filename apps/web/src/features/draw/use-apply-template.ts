import { useMutation, useQueryClient } from '@tanstack/react-query';
import { taskQueries } from '../../services/task';

/**
 * Loads a template's details into the draw store (spec §4: step at stepKey 0, generate mode of the first step).
 * `applyingId` is the template being loaded, for the button that asked.
 */
export function useApplyTemplate() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: async (templateId: string) => {
      // The draw store comes with the click: the home page's 精选模板 must not carry it in the first load.
      const [detail, { useDraw }] = await Promise.all([
        queryClient.fetchQuery({
          ...taskQueries.templateDetail(templateId),
          staleTime: 0,
        }),
        import('../../stores/draw'),
      ]);
      useDraw.getState().loadTemplateDetails(detail);
    },
  });
  return { apply: mutation.mutate, applyingId: (mutation.isPending && mutation.variables) || null };
}
