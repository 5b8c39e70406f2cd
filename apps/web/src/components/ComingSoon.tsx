import { Empty, Typography } from 'antd';
import type { ReactNode } from 'react';

interface ComingSoonProps {
  title: string;
  description?: ReactNode;
}

/** The tidy empty state of a page that a later release fills. */
export function ComingSoon({ title, description = '功能即将上线，敬请期待' }: ComingSoonProps) {
  return (
    <div className="hf-page">
      <Typography.Title level={3} className="hf-page-title">
        {title}
      </Typography.Title>
      <div className="hf-panel hf-empty-panel">
        <Empty description={description} />
      </div>
    </div>
  );
}
