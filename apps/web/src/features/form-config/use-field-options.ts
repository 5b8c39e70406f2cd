import type { FormConfigItem, FormOption } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { fetchFormOptions } from '../../services/options';

/** A field's choices: its own `option` list, or the ones its `url` answers with. */
export function useFieldOptions(item: FormConfigItem | undefined): { options: FormOption[]; loading: boolean } {
  const url = item?.option ? undefined : item?.url;
  const query = useQuery({
    queryKey: ['formOptions', url],
    queryFn: () => fetchFormOptions(url ?? ''),
    enabled: Boolean(url),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return { options: item?.option ?? query.data ?? [], loading: query.isFetching };
}
