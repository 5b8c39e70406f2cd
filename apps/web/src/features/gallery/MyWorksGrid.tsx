import type { WorkItem } from '@huafang/contracts';
import { MyWorkTile } from './MyWorkTile';
import { groupWorksByDay } from './work-days';

interface MyWorksGridProps {
  works: WorkItem[];
  selecting: boolean;
  selected: ReadonlySet<string>;
  onActivate: (work: WorkItem) => void;
  onLongPress: (work: WorkItem) => void;
}

/** One page of works under a heading per day of creation. */
export function MyWorksGrid({ works, selecting, selected, onActivate, onLongPress }: MyWorksGridProps) {
  return (
    <div className={selecting ? 'hf-gallery-selecting' : undefined}>
      {groupWorksByDay(works).map((group) => (
        <section key={group.day} className="hf-gallery-day" aria-label={group.label}>
          <h3 className="hf-gallery-day-head">
            {group.label}
            <span className="hf-gallery-day-count">{group.works.length} 张</span>
          </h3>
          <div className="hf-gallery-grid">
            {group.works.map((work) => (
              <MyWorkTile
                key={work.id}
                work={work}
                selecting={selecting}
                selected={selected.has(work.id)}
                onActivate={onActivate}
                onLongPress={onLongPress}
              />
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}

export function MyWorksGridSkeleton({ count = 12 }: { count?: number }) {
  return (
    <div className="hf-gallery-grid" aria-busy="true">
      {Array.from({ length: count }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity of their own.
        <div key={index} className="hf-gallery-skeleton" />
      ))}
    </div>
  );
}
