import { Skeleton } from 'antd';
import './tasks.css';

interface CardGridSkeletonProps {
  count?: number;
  /** The grid's class: the card grid of /tasks, or the home page's template row. */
  className?: string;
  /** The class of a card's text part, as on the cards it stands for. */
  bodyClassName?: string;
  /** Text lines under the title. */
  rows?: number;
}

/** Placeholder cards while a grid loads. */
export function CardGridSkeleton({
  count = 8,
  className = 'hf-card-grid',
  bodyClassName = 'hf-card-body',
  rows = 2,
}: CardGridSkeletonProps) {
  return (
    <div className={className} aria-busy="true">
      {Array.from({ length: count }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity of their own.
        <div key={index} className="hf-card">
          <div className="hf-cover hf-cover-loading" />
          <div className={bodyClassName}>
            <Skeleton active title={{ width: '60%' }} paragraph={{ rows }} />
          </div>
        </div>
      ))}
    </div>
  );
}
