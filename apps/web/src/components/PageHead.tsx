import { Typography } from 'antd';
import type { ReactNode } from 'react';

/** A page's title with its actions on the right (the admin pages' head). */
export function PageHead({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="hf-page-head">
      <Typography.Title level={3} className="hf-page-title">
        {title}
      </Typography.Title>
      {children}
    </div>
  );
}
