import type { PromptGroupItem } from '@huafang/contracts';
import { Tag, Tooltip, Typography } from 'antd';

interface PromptChipsProps {
  items: PromptGroupItem[];
  onRemove: (id: string) => void;
}

/** Chinese labels with the English text on hover; words typed in by hand (custom 1) are blue. */
export function PromptChips({ items, onRemove }: PromptChipsProps) {
  if (items.length === 0) {
    return <Typography.Text type="secondary">还没有提示词，从词库选择或在下方输入</Typography.Text>;
  }
  return (
    <div className="hf-ta-chips">
      {items.map((item) => (
        <Tooltip key={item.id} title={item.promptText}>
          <Tag
            closable
            color={item.custom === '1' ? 'blue' : undefined}
            onClose={(event) => {
              event.preventDefault();
              onRemove(item.id);
            }}
          >
            {item.groupName}
          </Tag>
        </Tooltip>
      ))}
    </div>
  );
}
