import { App, Button } from 'antd';
import type { PromptVariant } from '../../services/prompt';
import { useDraw } from '../../stores/draw';
import { promptGroupOf } from '../../stores/draw-state';
import { customWords, restoreCustomWords } from './custom-clean';

const UNDO_SECONDS = 8;

/** 清空自定义 (after the confirmation): says how many words went and offers 撤销 for a few seconds. */
export function useCleanCustomWords(variant: PromptVariant) {
  const { message } = App.useApp();
  const key = `clean-custom-${variant}`;

  return () => {
    const draw = useDraw.getState();
    const before = promptGroupOf(draw, variant);
    const count = customWords(before).length;
    if (count === 0) return;
    draw.cleanCustomPrompts(variant);
    const undo = () => {
      const state = useDraw.getState();
      state.replacePromptGroup(variant, restoreCustomWords(promptGroupOf(state, variant), before));
      message.open({ key, type: 'success', content: '已恢复自定义词', duration: 2 });
    };
    message.open({
      key,
      type: 'success',
      duration: UNDO_SECONDS,
      content: (
        <span>
          已清空 {count} 个自定义词
          <Button type="link" size="small" onClick={undo}>
            撤销
          </Button>
        </span>
      ),
    });
  };
}
