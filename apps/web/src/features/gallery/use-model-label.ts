import { useQuery } from '@tanstack/react-query';
import { MODEL_OPTIONS_URL, optionQueries } from '../../services/options';

/**
 * The name of a model id, from the option list the /draw form uses (the same query as its model field);
 * undefined while unknown. That route needs login, so for logged-out visitors it stays unknown.
 */
export function useModelLabel(loggedIn: boolean): (modelId: string) => string | undefined {
  const query = useQuery({ ...optionQueries.formOptions(MODEL_OPTIONS_URL), enabled: loggedIn });
  return (modelId) => query.data?.find((option) => String(option.value) === modelId)?.label;
}
