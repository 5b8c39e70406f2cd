import { describe, expect, it } from 'vitest';
import { hotScore } from '../../src/features/works/hot-score.js';

const at = (hours: number) => new Date(Date.UTC(2026, 10, 20) + hours * 3_600_000).toISOString();
const work = (likes: number, favorites: number, views: number, hours: number) =>
  hotScore({ likes, favorites, views, publishedAt: at(hours) });

describe('热门 score', () => {
  it('grows with likes, favourites and views, a favourite weighing most and a view least', () => {
    expect(work(1, 0, 0, 0)).toBeGreaterThan(work(0, 0, 0, 0));
    expect(work(0, 1, 0, 0)).toBeGreaterThan(work(1, 0, 0, 0));
    expect(work(1, 0, 0, 0)).toBeGreaterThan(work(0, 0, 1, 0));
  });

  it('decays with age: ten times the engagement is worth twelve hours of freshness', () => {
    expect(work(0, 0, 10, 0)).toBeCloseTo(work(0, 0, 1, 12), 9);
    expect(work(0, 0, 0, 2)).toBeGreaterThan(work(0, 0, 0, 0));
    // A month-old work with a few reactions stays below one published today without any.
    expect(work(3, 3, 20, -30 * 24)).toBeLessThan(work(0, 0, 0, 0));
  });

  it('treats no engagement like one view, so a new work is never below zero engagement', () => {
    expect(work(0, 0, 0, 0)).toBe(work(0, 0, 1, 0));
  });
});
