import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fetchTemplateDetail } from '../../services/task';
import { useDraw } from '../../stores/draw';
import { taskKeys } from '../tasks/task-queries';

/**
 * Loads a template's details into the draw store (spec §4: step at stepKey 0, generate mode of the first step).
 * `applyingId` is the template being loaded, for the button that asked.
 */
export function useApplyTemplate() {
  const queryClient = useQueryClient();
  const loadTemplateDetails = useDraw((state) => state.loadTemplateDetails);
  const mutation = useMutation({
    mutationFn: (templateId: string) =>
      queryClient.fetchQuery({
        queryKey: taskKeys.templateDetail(templateId),
        queryFn: () => fetchTemplateDetail(templateId),
        staleTime: 0,
      }),
    onSuccess: (detail) => loadTemplateDetails(detail),
  });
  return { apply: mutation.mutate, applyingId: (mutation.isPending && mutation.variables) || null };
}
