/** One bar of a day chart: its height as a share of the tallest day (0 for an empty window). */
export function barHeights(values: number[]): number[] {
  const max = Math.max(0, ...values);
  return values.map((value) => (max === 0 ? 0 : value / max));
}

/** 2026-11-22 → 11-22: the axis has room for month and day only. */
export function shortDay(date: string): string {
  return date.slice(5);
}

/** Room one axis label ("11-22" at 11 px) needs, with space to the next one. */
export const DAY_LABEL_WIDTH = 40;
/** Room one digit of a value over a bar needs (10 px digits), plus a little padding for the whole value. */
const VALUE_DIGIT_WIDTH = 7;
const VALUE_PADDING = 4;

/**
 * Which days get an axis label when `count` days share `width` pixels: every day when they fit, otherwise every
 * n-th counted back from the newest, so the labels never overlap and today is always named.
 */
export function labelledDays(count: number, width: number): boolean[] {
  const step = width > 0 ? Math.max(1, Math.ceil((count * DAY_LABEL_WIDTH) / width)) : count;
  return Array.from({ length: count }, (_, index) => (count - 1 - index) % step === 0);
}

/** Whether every day's value fits over its bar, so the chart can show them all without hovering. */
export function valuesFit(values: (number | string)[], width: number): boolean {
  if (values.length === 0 || width <= 0) return false;
  const widest = Math.max(...values.map((value) => String(value).length));
  return widest * VALUE_DIGIT_WIDTH + VALUE_PADDING <= width / values.length;
}
