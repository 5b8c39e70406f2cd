import { DeleteOutlined, ImportOutlined, PushpinFilled, PushpinOutlined } from '@ant-design/icons';
import type { PromptHistoryItem } from '@huafang/contracts';
import { Button, Checkbox, Tag } from 'antd';
import { ConfirmAction } from '../../common/ConfirmAction';
import { formatDateTime } from '../../common/format-date-time';
import { HistoryChips } from './HistoryChips';

interface HistoryEntryProps {
  entry: PromptHistoryItem;
  selected: boolean;
  onSelect: (checked: boolean) => void;
  onImport: () => void;
  onPin: (pinned: boolean) => void;
  onDelete: () => void;
  /** This entry's pin or delete is on its way. */
  busy: boolean;
}

/** One generation's prompts: template, time, both groups, and 导入 · 置顶 · 删除. */
export function HistoryEntry({ entry, selected, onSelect, onImport, onPin, onDelete, busy }: HistoryEntryProps) {
  const pinned = entry.pin === 1;
  const time = formatDateTime(entry.createdAt);
  return (
    <li className={pinned ? 'hf-history-entry hf-history-entry-pinned' : 'hf-history-entry'}>
      <article aria-label={`${entry.templateName} ${time}`}>
        <div className="hf-history-entry-head">
          <Checkbox checked={selected} onChange={(event) => onSelect(event.target.checked)} aria-label="选择这条记录" />
          <span className="hf-history-entry-name">{entry.templateName}</span>
          {pinned && (
            <Tag color="gold" icon={<PushpinFilled />} className="hf-history-pin-badge">
              已置顶
            </Tag>
          )}
          <time className="hf-history-entry-time" dateTime={entry.createdAt}>
            {time}
          </time>
        </div>
        <HistoryChips label="正向" items={entry.promptGroup} />
        <HistoryChips label="反向" items={entry.negativePromptGroup} />
        <div className="hf-history-entry-actions">
          <Button size="small" type="primary" ghost icon={<ImportOutlined />} onClick={onImport}>
            导入
          </Button>
          <Button
            size="small"
            icon={pinned ? <PushpinFilled /> : <PushpinOutlined />}
            onClick={() => onPin(!pinned)}
            disabled={busy}
          >
            {pinned ? '取消置顶' : '置顶'}
          </Button>
          <ConfirmAction title="删除这条历史记录？" description="删除后无法恢复" onConfirm={onDelete}>
            <Button size="small" danger icon={<DeleteOutlined />} disabled={busy}>
              删除
            </Button>
          </ConfirmAction>
        </div>
      </article>
    </li>
  );
}
