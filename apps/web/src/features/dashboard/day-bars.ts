/** One bar of a day chart: its height as a share of the tallest day (0 for an empty window). */
export function barHeights(values: number[]): number[] {
  const max = Math.max(0, ...values);
  return values.map((value) => (max === 0 ? 0 : value / max));
}

/** 2026-11-22 → 11-22: the axis has room for month and day only. */
export function shortDay(date: string): string {
  return date.slice(5);
}
