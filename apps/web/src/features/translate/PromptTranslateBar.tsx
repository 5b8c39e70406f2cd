import { TranslationOutlined, UndoOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import type { usePromptTranslate } from './use-prompt-translate';

interface PromptTranslateBarProps {
  hint?: ReactNode;
  /** What the prompt is, for the buttons' accessible names (画面描述, 不想出现的内容). */
  label: string;
  translation: ReturnType<typeof usePromptTranslate>;
}

/** Under a prompt textarea: 翻译 (or 撤销 right after one), then the hint; the character count keeps the right end. */
export function PromptTranslateBar({ hint, label, translation }: PromptTranslateBarProps) {
  const { translating, canTranslate, translate, canUndo, undo } = translation;
  return (
    <span className="hf-translate-bar">
      {canUndo ? (
        <span className="hf-translate-done">
          已翻译为英文
          <Button size="small" type="link" icon={<UndoOutlined />} onClick={undo} aria-label={`撤销翻译${label}`}>
            撤销
          </Button>
        </span>
      ) : (
        <Tooltip title={canTranslate ? '把中文翻译成英文，生成时模型读取英文效果更好' : '没有需要翻译的中文'}>
          <Button
            size="small"
            icon={<TranslationOutlined />}
            loading={translating}
            disabled={!canTranslate}
            onClick={() => void translate()}
            aria-label={`翻译${label}`}
          >
            翻译
          </Button>
        </Tooltip>
      )}
      {hint && <span>{hint}</span>}
    </span>
  );
}
