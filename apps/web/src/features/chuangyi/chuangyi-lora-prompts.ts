import { useChuangyi } from '../../stores/chuangyi';
import { withoutTriggerText, withTriggerText } from '../draw/lora/lora-picks';
import type { LoraPromptTarget } from '../draw/lora/lora-prompt-target';

/** 自由创作: a picked LoRA's trigger words are appended to the typed prompt, and taken out again with it. */
export const CHUANGYI_LORA_PROMPTS: LoraPromptTarget = {
  addTriggerWords(lora) {
    const free = useChuangyi.getState();
    free.setPrompt(withTriggerText(free.prompt, lora.triggerWords));
  },
  removeTriggerWords(lora) {
    const free = useChuangyi.getState();
    free.setPrompt(withoutTriggerText(free.prompt, lora.triggerWords));
  },
};
