/**
 * 热门's score of a public work: the base-10 log of its weighted engagement plus its publication time in units of
 * HALF_DAY_SECONDS. Ten times the engagement is worth half a day of freshness, so an old work needs ever more
 * likes to stay above new ones (age decay), yet the score of a work only changes when the work does — it can be
 * stored and indexed. Likes and favourites weigh more than views: a view costs one click, a favourite means
 * someone wants to come back.
 */
const WEIGHTS = { likes: 3, favorites: 5, views: 1 } as const;
/** 12 hours: the freshness that ten times the engagement buys. */
const DECAY_SECONDS = 43_200;
/** Scores count from here so they stay small numbers (2026-01-01). */
const EPOCH_SECONDS = Date.UTC(2026, 0, 1) / 1000;

export type Engagement = { likes: number; favorites: number; views: number; publishedAt: string };

export function hotScore(work: Engagement): number {
  const engagement = WEIGHTS.likes * work.likes + WEIGHTS.favorites * work.favorites + WEIGHTS.views * work.views;
  const age = Date.parse(work.publishedAt) / 1000 - EPOCH_SECONDS;
  return Math.log10(Math.max(1, engagement)) + age / DECAY_SECONDS;
}
