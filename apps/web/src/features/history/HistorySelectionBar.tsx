import { DeleteOutlined } from '@ant-design/icons';
import { Button, Checkbox } from 'antd';
import { ConfirmAction } from '../../common/ConfirmAction';

interface HistorySelectionBarProps {
  pageIds: string[];
  selected: string[];
  onSelect: (ids: string[]) => void;
  onDelete: () => void;
  deleting: boolean;
}

/** 全选本页 and 删除所选 for tidying up many entries at once. */
export function HistorySelectionBar({ pageIds, selected, onSelect, onDelete, deleting }: HistorySelectionBarProps) {
  const all = pageIds.length > 0 && pageIds.every((id) => selected.includes(id));
  return (
    <div className="hf-history-toolbar">
      <Checkbox
        checked={all}
        indeterminate={!all && selected.length > 0}
        disabled={pageIds.length === 0}
        onChange={(event) => onSelect(event.target.checked ? pageIds : [])}
      >
        全选本页
      </Checkbox>
      <ConfirmAction
        title={`删除选中的 ${selected.length} 条历史记录？`}
        description="删除后无法恢复"
        onConfirm={onDelete}
        disabled={selected.length === 0}
      >
        <Button size="small" danger icon={<DeleteOutlined />} disabled={selected.length === 0} loading={deleting}>
          删除所选{selected.length > 0 ? `（${selected.length}）` : ''}
        </Button>
      </ConfirmAction>
    </div>
  );
}
