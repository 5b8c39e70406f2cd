import { Button, Result } from 'antd';

interface LoadFailedProps {
  /** What failed, e.g. 模板加载失败. */
  title: string;
  subTitle?: string;
  /** Asks again, usually the query's refetch. */
  onRetry: () => void;
}

/** A query that failed where its content should be: what failed and 重试. */
export function LoadFailed({ title, subTitle, onRetry }: LoadFailedProps) {
  return (
    <Result
      status="error"
      title={title}
      subTitle={subTitle}
      extra={
        <Button type="primary" onClick={onRetry}>
          重试
        </Button>
      }
    />
  );
}
