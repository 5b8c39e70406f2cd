import type { PublicWorkItem } from '@huafang/contracts';
import { Fragment, type ReactNode, useContext, useRef } from 'react';
import { useElementWidth } from '../../common/use-element-width';
import { RenderedWidthContext } from '../../common/use-screen';
import { MASONRY_GAP, masonryColumnCount, masonryColumns } from './masonry-layout';
import { PublicWorkCard } from './PublicWorkCard';
import './gallery.css';

interface MasonryColumnsProps<T> {
  items: readonly T[];
  /** height / width of an item, known before its image loads. */
  aspect: (item: T) => number;
  render: (item: T) => ReactNode;
  itemKey: (item: T) => string;
  /** A fixed number of columns; by default as many as fit (masonryColumnCount). */
  columns?: number;
  busy?: boolean;
}

/** Both side paddings of a page on a phone (screens.css), which is what the server renders for. */
const RENDERED_PAGE_GUTTERS = 24;

/** Items dealt into columns left to right, each to the shortest column (see masonryColumns). */
function MasonryColumns<T>({ items, aspect, render, itemKey, columns, busy }: MasonryColumnsProps<T>) {
  const container = useRef<HTMLDivElement>(null);
  const measured = useElementWidth(container);
  // Until measured, a page the server rendered assumes its window less the page's side padding, so the server's
  // columns are the ones the browser hydrates and usually keeps (ssr/entry-server.tsx).
  const renderedWidth = useContext(RenderedWidthContext);
  const width = measured || (renderedWidth === null ? 0 : renderedWidth - RENDERED_PAGE_GUTTERS);
  const count = columns ?? masonryColumnCount(width);
  return (
    <div ref={container} className="hf-masonry" style={{ gap: MASONRY_GAP }} aria-busy={busy || undefined}>
      {masonryColumns(items, count, aspect).map((column, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: columns have no identity beyond their place
        <div key={index} className="hf-masonry-column" style={{ gap: MASONRY_GAP }}>
          {column.map((item) => (
            <Fragment key={itemKey(item)}>{render(item)}</Fragment>
          ))}
        </div>
      ))}
    </div>
  );
}

interface WorkMasonryProps {
  works: PublicWorkItem[];
  onOpen: (work: PublicWorkItem) => void;
  /** A fixed number of columns; by default as many as fit (two at least on a phone). */
  columns?: number;
  /** How many of the first works are on the first screen (their pictures load at once, first); the rest load lazily. */
  firstScreen?: number;
}

/** Public works in a masonry: each keeps its aspect ratio, the newest read left to right across the top row. */
export function WorkMasonry({ works, onOpen, columns, firstScreen = 0 }: WorkMasonryProps) {
  const first = new Set(works.slice(0, firstScreen).map((work) => work.id));
  return (
    <MasonryColumns
      items={works}
      columns={columns}
      aspect={(work) => work.height / work.width}
      itemKey={(work) => work.id}
      render={(work) => <PublicWorkCard work={work} onOpen={onOpen} priority={first.has(work.id)} />}
    />
  );
}

/** Uneven placeholders while the first page loads. */
export function WorkMasonrySkeleton({ count = 8, columns }: { count?: number; columns?: number }) {
  // Placeholders have no identity of their own: numbered keys are enough.
  const placeholders = Array.from({ length: count }, (_, index) => ({
    id: `p${index}`,
    aspect: 0.7 + (index % 3) * 0.25,
  }));
  return (
    <MasonryColumns
      busy
      items={placeholders}
      columns={columns}
      aspect={(item) => item.aspect}
      itemKey={(item) => item.id}
      render={(item) => <div className="hf-masonry-placeholder" style={{ aspectRatio: `1 / ${item.aspect}` }} />}
    />
  );
}
