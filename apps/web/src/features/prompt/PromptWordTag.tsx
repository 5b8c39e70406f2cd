import { Tag } from 'antd';
import './prompt-library.css';

interface PromptWordTagProps {
  label: string;
  text: string;
  checked: boolean;
  onToggle: (checked: boolean) => void;
}

/**
 * A library word: the Chinese label, the English prompt on hover; checked while it is in the group. The hover text
 * is the browser's own title, not a popup layer of ours, so Escape always closes the 词库 drawer at once.
 */
export function PromptWordTag({ label, text, checked, onToggle }: PromptWordTagProps) {
  return (
    <span title={text}>
      <Tag.CheckableTag checked={checked} onChange={onToggle} className="hf-word-tag">
        {label}
      </Tag.CheckableTag>
    </span>
  );
}
