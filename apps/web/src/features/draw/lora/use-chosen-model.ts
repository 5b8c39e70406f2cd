import { useQuery } from '@tanstack/react-query';
import { modelQueries } from '../../../services/model';
import type { ChosenModel } from './lora-picks';

/** The chosen checkpoint, from the menu the model field reads; undefined while none is chosen. */
export function useChosenModel(modelId: unknown): ChosenModel | undefined {
  const menu = useQuery(modelQueries.menu('enabled'));
  if (typeof modelId !== 'string') return undefined;
  return menu.data?.flatMap((group) => group.models).find((model) => model.id === modelId);
}
