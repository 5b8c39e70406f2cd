import { type QueryKey, queryOptions } from '@tanstack/react-query';

/**
 * A query about one thing that may not be chosen yet (the open work, the selected task): it waits, disabled, until
 * there is an id, so neither its key nor its fetch ever sees the missing one.
 */
export function queryForId<Key extends QueryKey, Data>(
  id: string | null | undefined,
  queryKey: (id: string) => Key,
  queryFn: (id: string) => Promise<Data>,
) {
  return queryOptions({ queryKey: queryKey(id ?? ''), queryFn: () => queryFn(id ?? ''), enabled: Boolean(id) });
}
