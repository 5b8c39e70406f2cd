import type { ModelGroup } from '@huafang/contracts';

/** The groups a modelId field offers: those its modelTabList names (by id or name), or every group. */
export function modelTabs(groups: ModelGroup[], modelTabList: string[] | undefined): ModelGroup[] {
  if (!modelTabList?.length) return groups;
  const wanted = new Set(modelTabList);
  return groups.filter((group) => wanted.has(group.id) || wanted.has(group.name));
}

export function groupOfModel(groups: ModelGroup[], modelId: unknown): ModelGroup | undefined {
  return groups.find((group) => group.models.some((model) => model.id === modelId));
}
