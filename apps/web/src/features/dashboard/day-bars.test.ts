import { expect, it } from 'vitest';
import { barHeights, shortDay } from './day-bars';

it('scales bars to the tallest day and keeps an empty window flat', () => {
  expect(barHeights([0, 2, 4])).toEqual([0, 0.5, 1]);
  expect(barHeights([0, 0])).toEqual([0, 0]);
  expect(barHeights([])).toEqual([]);
  expect(shortDay('2026-11-22')).toBe('11-22');
});
