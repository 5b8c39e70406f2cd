import type { WorkItem } from '@huafang/contracts';
import { Checkbox, Tag } from 'antd';
import { AigcBadge } from '../../common/AigcBadge';
import { useLongPress } from '../../common/use-long-press';

interface MyWorkTileProps {
  work: WorkItem;
  selecting: boolean;
  selected: boolean;
  /** Opens the detail, or toggles the selection in 多选 mode. */
  onActivate: (work: WorkItem) => void;
  /** A long press of a finger: starts 多选 with this work. */
  onLongPress: (work: WorkItem) => void;
}

export function MyWorkTile({ work, selecting, selected, onActivate, onLongPress }: MyWorkTileProps) {
  const name = work.templateName || '自由创作';
  const longPress = useLongPress(() => onLongPress(work));
  return (
    <div className={`hf-gallery-tile${selected ? ' hf-gallery-tile-selected' : ''}`}>
      <button
        type="button"
        className="hf-zoom-thumb hf-gallery-thumb"
        {...longPress}
        onClick={() => onActivate(work)}
        aria-label={selecting ? `选择作品：${name}` : `查看作品：${name}`}
        aria-pressed={selecting ? selected : undefined}
        title={name}
      >
        <img src={work.thumbUrl} alt={name} loading="lazy" />
      </button>
      <AigcBadge />
      {selecting && <Checkbox checked={selected} className="hf-gallery-check" tabIndex={-1} aria-hidden />}
      {work.public && (
        <Tag color="purple" className="hf-gallery-badge">
          已发布
        </Tag>
      )}
    </div>
  );
}
