import {
  type ArtModel,
  type FormConfigItem,
  type LoraStyle,
  type LoraUse,
  loraUseSchema,
  type PromptGroupItem,
} from '@huafang/contracts';

/** The contract's limit (loraUsesSchema): at most this many LoRAs in one job. */
export const MAX_LORAS = 5;

/** The form's `loras` value as LoRA uses; anything malformed (an old draft, a hand-edited work) is left out. */
export function readLoraUses(value: unknown): LoraUse[] {
  if (!Array.isArray(value)) return [];
  const uses: LoraUse[] = [];
  for (const item of value) {
    const parsed = loraUseSchema.safeParse(item);
    if (parsed.success && !uses.some((use) => use.loraId === parsed.data.loraId)) uses.push(parsed.data);
  }
  return uses.slice(0, MAX_LORAS);
}

/** The LoRA ids a form field allows (its options); null when any enabled LoRA may be picked. */
export function allowedLoraIds(item: Pick<FormConfigItem, 'option'>): ReadonlySet<string> | null {
  const ids = (item.option ?? []).map((option) => String(option.value));
  return ids.length > 0 ? new Set(ids) : null;
}

/** The chosen checkpoint as far as its LoRAs care. */
export type ChosenModel = Pick<ArtModel, 'family' | 'engine'>;

/**
 * Why a LoRA does not suit the chosen checkpoint (another family or inference engine, which the server refuses);
 * null when it does, or while no model is chosen.
 */
export function misfit(lora: Pick<LoraStyle, 'family' | 'engine'>, model: ChosenModel | undefined): string | null {
  if (!model) return null;
  if (lora.engine !== model.engine) return '适用于其他推理引擎的模型';
  return lora.family === model.family ? null : `适用于 ${lora.family} 模型`;
}

export interface LoraFilter {
  query: string;
  /** The tab: a styleGroup, or null for 全部. */
  group: string | null;
  model: ChosenModel | undefined;
  /** 显示全部: LoRAs of other families are listed too (greyed, not pickable). */
  showAllFamilies: boolean;
}

/** What the picker lists: the allowed set, the tab, the search (name, backend name, trigger words, description). */
export function filterLoras(loras: LoraStyle[], allowed: ReadonlySet<string> | null, filter: LoraFilter): LoraStyle[] {
  const query = filter.query.trim().toLowerCase();
  return loras.filter((lora) => {
    if (allowed && !allowed.has(lora.id)) return false;
    if (filter.group !== null && lora.styleGroup !== filter.group) return false;
    if (!filter.showAllFamilies && misfit(lora, filter.model)) return false;
    if (!query) return true;
    return [lora.name, lora.loraName, lora.description, ...lora.triggerWords].some((text) =>
      text.toLowerCase().includes(query),
    );
  });
}

/** The picker's tabs: the style groups in the order their first LoRA comes. */
export function styleGroupsOf(loras: LoraStyle[]): string[] {
  return [...new Set(loras.map((lora) => lora.styleGroup))];
}

/** A weight inside the LoRA's range, to two decimals (the slider's step is 0.05). */
export function clampWeight(lora: Pick<LoraStyle, 'minWeight' | 'maxWeight'>, weight: number): number {
  const clamped = Math.min(lora.maxWeight, Math.max(lora.minWeight, weight));
  return Math.round(clamped * 100) / 100;
}

/** Adds a LoRA at its default weight; one already chosen, or a sixth, leaves the list as it is. */
export function addLoraUse(uses: LoraUse[], lora: LoraStyle): LoraUse[] {
  if (uses.length >= MAX_LORAS || uses.some((use) => use.loraId === lora.id)) return uses;
  return [...uses, { loraId: lora.id, weight: clampWeight(lora, lora.defaultWeight) }];
}

export function removeLoraUse(uses: LoraUse[], loraId: string): LoraUse[] {
  return uses.filter((use) => use.loraId !== loraId);
}

export function setLoraWeight(uses: LoraUse[], loraId: string, weight: number): LoraUse[] {
  return uses.map((use) => (use.loraId === loraId ? { ...use, weight } : use));
}

/**
 * Trigger-word tags carry the LoRA in their id, so removing the LoRA removes exactly the tags it added (a recalled
 * work's prompt group keeps the ids). Prompt item ids are at most 64 characters.
 */
const triggerPrefix = (loraId: string) => `lora-${loraId.slice(0, 48)}-`;

export function isTriggerOf(item: Pick<PromptGroupItem, 'id'>, loraId: string): boolean {
  return item.id.startsWith(triggerPrefix(loraId));
}

/**
 * The prompt group with the LoRA's trigger words added as tags; a word the group already has (typed by the user or
 * added by another LoRA) is not added twice.
 */
export function withTriggerWords(group: PromptGroupItem[], lora: Pick<LoraStyle, 'id' | 'triggerWords'>) {
  const present = new Set(group.map((item) => item.promptText.trim().toLowerCase()));
  const added: PromptGroupItem[] = [];
  lora.triggerWords.forEach((word, index) => {
    const key = word.trim().toLowerCase();
    if (!key || present.has(key)) return;
    present.add(key);
    added.push({ id: `${triggerPrefix(lora.id)}${index}`, groupName: word, promptText: word, custom: '0' });
  });
  if (added.length === 0) return group;
  // In 编辑 mode every word shows its close button; the new ones too.
  const editing = group.some((item) => item.showClose);
  return [...group, ...(editing ? added.map((item) => ({ ...item, showClose: true })) : added)];
}

/** The prompt group without the tags the LoRA added. */
export function withoutTriggerWords(group: PromptGroupItem[], loraId: string): PromptGroupItem[] {
  return group.some((item) => isTriggerOf(item, loraId)) ? group.filter((item) => !isTriggerOf(item, loraId)) : group;
}

/** Commas (half and full width), 、, semicolons and line breaks separate the words of a typed prompt. */
const SEPARATORS = /[,，、;；\n\r]+/;

/** 自由创作's typed prompt with the trigger words it lacks appended, comma separated. */
export function withTriggerText(prompt: string, words: string[]): string {
  const present = new Set(
    prompt
      .split(SEPARATORS)
      .map((word) => word.trim().toLowerCase())
      .filter(Boolean),
  );
  const missing = [...new Set(words.map((word) => word.trim()).filter(Boolean))].filter(
    (word) => !present.has(word.toLowerCase()),
  );
  if (missing.length === 0) return prompt;
  const base = prompt.trimEnd().replace(/[,，]$/, '');
  return base ? `${base}, ${missing.join(', ')}` : missing.join(', ');
}

/** 自由创作's typed prompt without the trigger words (the other words keep their order). */
export function withoutTriggerText(prompt: string, words: string[]): string {
  const gone = new Set(words.map((word) => word.trim().toLowerCase()));
  const kept = prompt
    .split(SEPARATORS)
    .map((word) => word.trim())
    .filter((word) => word && !gone.has(word.toLowerCase()));
  return kept.length === prompt.split(SEPARATORS).filter((word) => word.trim()).length ? prompt : kept.join(', ');
}

/** 名称 0.8: how a chosen LoRA reads on its chip and in a work's detail. */
export function formatWeight(weight: number): string {
  return String(Math.round(weight * 100) / 100);
}

/**
 * A work's LoRAs as 名称 权重, in the order used; LoRAs the list does not name (withdrawn, or a guest's view with no
 * list) are left out rather than shown as ids.
 */
export function loraSummary(value: unknown, styles: Pick<LoraStyle, 'id' | 'name'>[] | undefined): string | null {
  const named = readLoraUses(value).flatMap((use) => {
    const lora = styles?.find((style) => style.id === use.loraId);
    return lora ? [`${lora.name} ${formatWeight(use.weight)}`] : [];
  });
  return named.length > 0 ? named.join('、') : null;
}
