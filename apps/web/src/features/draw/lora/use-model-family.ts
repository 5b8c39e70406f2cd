import type { ModelFamily } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { modelQueries } from '../../../services/model';

/** The family of the chosen checkpoint, from the menu the model field reads; undefined while none is chosen. */
export function useModelFamily(modelId: unknown): ModelFamily | undefined {
  const menu = useQuery(modelQueries.menu('enabled'));
  if (typeof modelId !== 'string') return undefined;
  return menu.data?.flatMap((group) => group.models).find((model) => model.id === modelId)?.family;
}
