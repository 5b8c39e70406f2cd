import { createHash } from 'node:crypto';

type Item = { groupName?: unknown; promptText?: unknown; english?: unknown; custom?: unknown };

const wordsOf = (json: string): unknown[] => {
  try {
    const items = JSON.parse(json) as unknown;
    if (!Array.isArray(items)) return [];
    // Ids differ between two runs of the same words (typed words get new ones), so they are not part of it.
    return items.map((item: Item) => [item.groupName ?? '', item.promptText ?? '', item.custom ?? '0']);
  } catch {
    return [json];
  }
};

/** What makes two history entries the same: their words in order (label, text, custom), positive and negative. */
export function promptHistoryKey(promptGroupJson: string, negativePromptGroupJson: string): string {
  const words = JSON.stringify([wordsOf(promptGroupJson), wordsOf(negativePromptGroupJson)]);
  return createHash('sha256').update(words, 'utf8').digest('hex');
}
