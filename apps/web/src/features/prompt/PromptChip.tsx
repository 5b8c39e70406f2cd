import type { PromptGroupItem } from '@huafang/contracts';
import { Tag, Tooltip } from 'antd';
import './prompt-editor.css';

interface PromptChipProps {
  item: PromptGroupItem;
  onRemove: (id: string) => void;
}

/** A word of a prompt group: the Chinese label, its English prompt on hover, a close button in edit mode. */
export function PromptChip({ item, onRemove }: PromptChipProps) {
  return (
    <Tooltip title={item.promptText} mouseEnterDelay={0.3}>
      <Tag
        className="hf-prompt-chip"
        color={item.custom === '1' ? 'gold' : 'purple'}
        variant="filled"
        closable={item.showClose === true}
        onClose={(event) => {
          event.preventDefault();
          onRemove(item.id);
        }}
      >
        {item.groupName}
      </Tag>
    </Tooltip>
  );
}
