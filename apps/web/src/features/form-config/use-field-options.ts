import type { FormConfigItem, FormOption } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { optionQueries } from '../../services/options';

/** A field's choices: its own `option` list, or the ones its `url` answers with. */
export function useFieldOptions(item: FormConfigItem | undefined): { options: FormOption[]; loading: boolean } {
  const url = item?.option ? undefined : item?.url;
  const query = useQuery(optionQueries.formOptions(url));
  return { options: item?.option ?? query.data ?? [], loading: query.isFetching };
}
