import { Spin } from 'antd';

export function PageLoading() {
  return (
    <div className="hf-page-loading">
      <Spin size="large" />
    </div>
  );
}
