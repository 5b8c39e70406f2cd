import { Button, Empty } from 'antd';

interface GalleryEmptyProps {
  /** The list could not be read (the request layer has said why). */
  failed: boolean;
  onRetry: () => void;
  filtered: boolean;
  onClear: () => void;
  onCreate: () => void;
}

/** 我的作品 without works to show: failed, nothing matches the filters, or nothing made yet (去创作). */
export function GalleryEmpty({ failed, onRetry, filtered, onClear, onCreate }: GalleryEmptyProps) {
  if (failed) {
    return (
      <Empty description="作品加载失败">
        <Button onClick={onRetry}>重试</Button>
      </Empty>
    );
  }
  if (filtered) {
    return (
      <Empty description="没有符合条件的作品">
        <Button onClick={onClear}>清除筛选</Button>
      </Empty>
    );
  }
  return (
    <Empty description="还没有作品，生成的图片会自动保存在这里">
      <Button type="primary" onClick={onCreate}>
        去创作
      </Button>
    </Empty>
  );
}
