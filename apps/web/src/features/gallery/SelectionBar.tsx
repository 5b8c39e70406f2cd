import { CheckSquareOutlined, DeleteOutlined, DownloadOutlined } from '@ant-design/icons';
import { Button, Checkbox } from 'antd';

interface SelectionBarProps {
  selecting: boolean;
  onSelectingChange: (selecting: boolean) => void;
  /** The ids on the current page, which 全选 covers. */
  pageIds: string[];
  selected: ReadonlySet<string>;
  onSelectPage: (checked: boolean) => void;
  onDelete: () => void;
  onDownload: () => void;
  downloading: boolean;
}

/** 多选 with 全选 (this page), the count, 删除 and 打包下载. */
export function SelectionBar(props: SelectionBarProps) {
  const { selecting, onSelectingChange, pageIds, selected, onSelectPage, onDelete, onDownload, downloading } = props;
  if (!selecting) {
    return (
      <Button icon={<CheckSquareOutlined />} onClick={() => onSelectingChange(true)} disabled={pageIds.length === 0}>
        多选
      </Button>
    );
  }
  const onPage = pageIds.filter((id) => selected.has(id)).length;
  const none = selected.size === 0;
  return (
    <div className="hf-gallery-selection">
      <Checkbox
        checked={onPage > 0 && onPage === pageIds.length}
        indeterminate={onPage > 0 && onPage < pageIds.length}
        onChange={(event) => onSelectPage(event.target.checked)}
      >
        全选
      </Checkbox>
      <span className="hf-gallery-count" aria-live="polite">
        已选 {selected.size} 个
      </span>
      <Button danger icon={<DeleteOutlined />} disabled={none} onClick={onDelete}>
        删除
      </Button>
      <Button icon={<DownloadOutlined />} disabled={none} loading={downloading} onClick={onDownload}>
        {downloading ? '打包中…' : '打包下载'}
      </Button>
      <Button type="text" onClick={() => onSelectingChange(false)}>
        取消
      </Button>
    </div>
  );
}
