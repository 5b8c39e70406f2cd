import { Tag, Tooltip } from 'antd';
import './prompt-library.css';

interface PromptWordTagProps {
  label: string;
  text: string;
  checked: boolean;
  onToggle: (checked: boolean) => void;
}

/** A library word: the Chinese label, the English prompt on hover; checked while it is in the group. */
export function PromptWordTag({ label, text, checked, onToggle }: PromptWordTagProps) {
  return (
    <Tooltip title={text} mouseEnterDelay={0.3}>
      <Tag.CheckableTag checked={checked} onChange={onToggle} className="hf-word-tag">
        {label}
      </Tag.CheckableTag>
    </Tooltip>
  );
}
