import { describe, expect, it } from 'vitest';
import { barHeights, DAY_LABEL_WIDTH, labelledDays, shortDay, valuesFit } from './day-bars';

it('scales bars to the tallest day and keeps an empty window flat', () => {
  expect(barHeights([0, 2, 4])).toEqual([0, 0.5, 1]);
  expect(barHeights([0, 0])).toEqual([0, 0]);
  expect(barHeights([])).toEqual([]);
  expect(shortDay('2026-11-22')).toBe('11-22');
});

describe('labelledDays', () => {
  const indexes = (flags: boolean[]) => flags.flatMap((flag, index) => (flag ? [index] : []));

  it('labels every day when all labels fit', () => {
    expect(labelledDays(7, 320)).toEqual(Array(7).fill(true));
  });

  it('leaves at least a label width between labels at 14 and 30 days, and always names the newest day', () => {
    for (const [count, width] of [
      [14, 320],
      [30, 320],
      [30, 560],
      [14, 560],
    ] as const) {
      const shown = indexes(labelledDays(count, width));
      expect(shown.at(-1)).toBe(count - 1);
      const columnWidth = width / count;
      for (let i = 1; i < shown.length; i++) {
        expect(((shown[i] as number) - (shown[i - 1] as number)) * columnWidth).toBeGreaterThanOrEqual(DAY_LABEL_WIDTH);
      }
    }
    expect(indexes(labelledDays(30, 320))).toEqual([1, 5, 9, 13, 17, 21, 25, 29]);
  });

  it('labels only the newest day before the chart has been measured', () => {
    expect(indexes(labelledDays(14, 0))).toEqual([13]);
  });
});

it('shows the values over the bars only when the widest one fits a bar', () => {
  expect(valuesFit([3, 12, 140], 7 * 40)).toBe(true);
  expect(valuesFit(Array(30).fill(140), 320)).toBe(false);
  expect(valuesFit([], 320)).toBe(false);
});
