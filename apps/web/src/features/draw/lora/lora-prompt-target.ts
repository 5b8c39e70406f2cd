import type { LoraStyle } from '@huafang/contracts';
import { createContext } from 'react';

/**
 * Where a form's prompt lives, for the trigger words a picked LoRA brings: /draw's prompt group, 自由创作's typed
 * prompt. Without one (the template designer's preview) picking a LoRA leaves the prompt alone.
 */
export interface LoraPromptTarget {
  addTriggerWords(lora: Pick<LoraStyle, 'id' | 'triggerWords'>): void;
  removeTriggerWords(lora: Pick<LoraStyle, 'id' | 'triggerWords'>): void;
}

export const LoraPromptContext = createContext<LoraPromptTarget | null>(null);
