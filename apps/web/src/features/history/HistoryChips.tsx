import type { PromptGroupItem } from '@huafang/contracts';
import { Tag, Tooltip } from 'antd';
import { foldChips } from './history-import';

interface HistoryChipsProps {
  label: string;
  items: PromptGroupItem[];
}

/** One group of an entry, read only: Chinese labels, the English on hover, the rest folded into “+N”. */
export function HistoryChips({ label, items }: HistoryChipsProps) {
  if (items.length === 0) return null;
  const { shown, hidden } = foldChips(items);
  return (
    <div className="hf-history-chips">
      <span className="hf-history-chips-label">{label}</span>
      {shown.map((item) => (
        <Tooltip key={item.id} title={item.promptText} mouseEnterDelay={0.3}>
          <Tag className="hf-history-chip" color={item.custom === '1' ? 'gold' : 'purple'} variant="filled">
            {item.groupName}
          </Tag>
        </Tooltip>
      ))}
      {hidden > 0 && <Tag className="hf-history-chip">+{hidden}</Tag>}
    </div>
  );
}
