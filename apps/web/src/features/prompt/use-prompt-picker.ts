import { type PromptGroupItem, promptGroupSchema } from '@huafang/contracts';
import { toast } from '../../services/notices';
import type { PromptVariant } from '../../services/prompt';
import { useDraw } from '../../stores/draw';

export interface PickedWord {
  id: string;
  label: string;
  text: string;
}

/** Library words in and out of the current prompt group: a pick appends {id, groupName, promptText, custom "0"}. */
export function usePromptPicker(variant: PromptVariant) {
  const group = useDraw((state) => (variant === 'negative' ? state.curNegativePromptGroup : state.curPromptGroup));
  const appendPrompt = useDraw((state) => state.appendPrompt);
  const removePrompt = useDraw((state) => state.removePrompt);
  const selected = new Set(group.map((item) => item.id));

  const toggle = (word: PickedWord, checked: boolean) => {
    if (!checked) {
      removePrompt(variant, word.id);
      return;
    }
    const item: PromptGroupItem = { id: word.id, groupName: word.label, promptText: word.text, custom: '0' };
    // The group's own limits (150 words) say no before the server would.
    const check = promptGroupSchema.safeParse([...group, item]);
    if (!check.success) {
      toast(check.error.issues[0]?.message ?? '提示词过多', 'warning');
      return;
    }
    appendPrompt(variant, item);
  };

  return { selected, toggle };
}
