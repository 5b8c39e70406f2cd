import { useDraw } from '../../../stores/draw';
import { withoutTriggerWords, withTriggerWords } from './lora-picks';
import type { LoraPromptTarget } from './lora-prompt-target';

/** /draw: trigger words are tags of the positive prompt group, removable like any other. */
export const DRAW_LORA_PROMPTS: LoraPromptTarget = {
  addTriggerWords(lora) {
    const draw = useDraw.getState();
    draw.replacePromptGroup('positive', withTriggerWords(draw.curPromptGroup, lora));
  },
  removeTriggerWords(lora) {
    const draw = useDraw.getState();
    draw.replacePromptGroup('positive', withoutTriggerWords(draw.curPromptGroup, lora.id));
  },
};
