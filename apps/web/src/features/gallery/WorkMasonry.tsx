import type { PublicWorkItem } from '@huafang/contracts';
import { PublicWorkCard } from './PublicWorkCard';
import './gallery.css';

interface WorkMasonryProps {
  works: PublicWorkItem[];
  onOpen: (work: PublicWorkItem) => void;
}

/** Public works in CSS columns: each keeps its aspect ratio, columns fill top to bottom. */
export function WorkMasonry({ works, onOpen }: WorkMasonryProps) {
  return (
    <div className="hf-masonry">
      {works.map((work) => (
        <PublicWorkCard key={work.id} work={work} onOpen={onOpen} />
      ))}
    </div>
  );
}

/** Uneven placeholders while the first page loads. */
export function WorkMasonrySkeleton({ count = 8 }: { count?: number }) {
  // Placeholders have no identity of their own: numbered keys are enough.
  const heights = Array.from({ length: count }, (_, index) => ({ id: `p${index}`, height: 160 + (index % 3) * 60 }));
  return (
    <div className="hf-masonry" aria-busy="true">
      {heights.map((item) => (
        <div key={item.id} className="hf-masonry-item hf-masonry-placeholder" style={{ height: item.height }} />
      ))}
    </div>
  );
}
