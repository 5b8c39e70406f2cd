import { Button } from 'antd';
import type { ChunkLoadError } from '../lazy-chunk';
import { StatusMessage } from './StatusMessage';

/** Spec §8 "Loading chunk N failed", with 重试: a reload fetches the chunks of the build being served. */
export function ChunkErrorView({ error }: { error: ChunkLoadError }) {
  return (
    <StatusMessage
      status="warning"
      title={error.message}
      subTitle="页面资源加载失败，可能是网络不稳定或网站刚刚更新，请重试"
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          重试
        </Button>
      }
    />
  );
}
