import { useState } from 'react';
import { toast } from '../../services/notices';
import { isRequestError } from '../../services/request-error';
import { translateToEnglish } from '../../services/translate';
import { hasChinese } from './chinese';

/**
 * 翻译 for a typed prompt: the Chinese parts become English in place (the engine reads English), and 撤销
 * brings the Chinese back as long as the translated text has not been edited since.
 */
export function usePromptTranslate(value: string, onChange: (next: string) => void) {
  const [translating, setTranslating] = useState(false);
  const [undoable, setUndoable] = useState<{ original: string; translated: string } | null>(null);

  async function translate() {
    setTranslating(true);
    try {
      const english = await translateToEnglish(value);
      setUndoable({ original: value, translated: english });
      onChange(english);
    } catch (error) {
      toast(isRequestError(error) && error.message ? error.message : '翻译失败，请稍后重试');
    } finally {
      setTranslating(false);
    }
  }

  function undo() {
    if (undoable) onChange(undoable.original);
    setUndoable(null);
  }

  return {
    translating,
    canTranslate: hasChinese(value),
    translate,
    canUndo: undoable !== null && undoable.translated === value,
    undo,
  };
}
