import type { PromptGroupItem } from '@huafang/contracts';

/** Commas (half and full width), 、, semicolons and line breaks separate the words of a typed prompt. */
const SEPARATORS = /[,，、;；\n\r]+/;

/** 自由创作: a typed prompt as prompt group items, each word custom "1" with its text as label and prompt. */
export function promptGroupFromText(text: string, idPrefix: string): PromptGroupItem[] {
  const words = text
    .split(SEPARATORS)
    .map((word) => word.trim())
    .filter(Boolean);
  return [...new Set(words)].map((word, index) => ({
    id: `${idPrefix}-${index}`,
    groupName: word,
    promptText: word,
    custom: '1',
  }));
}
