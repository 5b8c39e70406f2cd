/** Below this a column would crop thumbnails too small to judge; wider containers get more columns. */
export const MASONRY_MIN_COLUMN_WIDTH = 240;
export const MASONRY_GAP = 16;
/** Phones still get two columns: one would show a single work per screen. */
const PHONE_MIN_WIDTH = 320;
/** The meta row under a thumbnail (author, views), as a share of the column width. */
const CARD_META_SHARE = 0.16;

/** How many columns fit a container of `width` CSS pixels. */
export function masonryColumnCount(width: number): number {
  const fitting = Math.floor((width + MASONRY_GAP) / (MASONRY_MIN_COLUMN_WIDTH + MASONRY_GAP));
  return Math.max(width >= PHONE_MIN_WIDTH ? 2 : 1, fitting);
}

/**
 * Deals items into `columns` columns in order, each to the shortest column so far (the leftmost on a tie), by the
 * heights their known aspect ratios give: the first row reads left to right and no column runs far ahead of the
 * others. `aspect(item)` is height / width.
 */
export function masonryColumns<T>(items: readonly T[], columns: number, aspect: (item: T) => number): T[][] {
  const count = Math.max(1, Math.floor(columns));
  const result: T[][] = Array.from({ length: count }, () => []);
  const heights: number[] = Array.from({ length: count }, () => 0);
  for (const item of items) {
    let shortest = 0;
    for (let column = 1; column < count; column++) {
      if ((heights[column] as number) < (heights[shortest] as number)) shortest = column;
    }
    result[shortest]?.push(item);
    const ratio = aspect(item);
    heights[shortest] =
      (heights[shortest] as number) + (Number.isFinite(ratio) && ratio > 0 ? ratio : 1) + CARD_META_SHARE;
  }
  return result;
}
