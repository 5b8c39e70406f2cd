import { Skeleton } from 'antd';

/** Placeholder cards while a grid loads. */
export function CardGridSkeleton({ count = 8 }: { count?: number }) {
  return (
    <div className="hf-card-grid" aria-busy="true">
      {Array.from({ length: count }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity of their own.
        <div key={index} className="hf-card">
          <div className="hf-cover hf-cover-loading" />
          <div className="hf-card-body">
            <Skeleton active title={{ width: '60%' }} paragraph={{ rows: 2 }} />
          </div>
        </div>
      ))}
    </div>
  );
}
