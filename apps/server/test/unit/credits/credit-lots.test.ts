import { describe, expect, it } from 'vitest';
import { giveBack, spend } from '../../../src/features/credits/credit-lots.js';

const lots = [
  { id: 'late', remaining: 50, expiresAt: '2026-12-31T00:00:00.000Z' },
  { id: 'soon', remaining: 30, expiresAt: '2026-12-01T00:00:00.000Z' },
];

describe('spending credits that expire', () => {
  it('takes the lot expiring soonest first, then the next, and permanent credits last', () => {
    expect(spend(lots, 20)).toEqual([{ lotId: 'soon', amount: 20 }]);
    expect(spend(lots, 60)).toEqual([
      { lotId: 'soon', amount: 30 },
      { lotId: 'late', amount: 30 },
    ]);
    expect(spend(lots, 100)).toEqual([
      { lotId: 'soon', amount: 30 },
      { lotId: 'late', amount: 50 },
      { lotId: null, amount: 20 },
    ]);
  });

  it('spends permanent credits alone when there is no lot, and skips empty lots', () => {
    expect(spend([], 7)).toEqual([{ lotId: null, amount: 7 }]);
    expect(spend([{ id: 'empty', remaining: 0, expiresAt: '2026-12-01T00:00:00.000Z' }], 7)).toEqual([
      { lotId: null, amount: 7 },
    ]);
  });
});

describe('giving a refund back where the charge took it', () => {
  const drawn = [
    { id: 'd1', lotId: 'soon', amount: 30, expiresAt: '2026-12-01T00:00:00.000Z' },
    { id: 'd2', lotId: 'late', amount: 50, expiresAt: '2026-12-31T00:00:00.000Z' },
    { id: 'd3', lotId: null, amount: 20, expiresAt: null },
  ];

  it('undoes the charge from its end: permanent credits first, then the lot expiring latest', () => {
    expect(giveBack(drawn, 60)).toEqual({
      back: [
        { draw: drawn[2], amount: 20 },
        { draw: drawn[1], amount: 40 },
      ],
      beyond: 0,
    });
  });

  it('gives everything back for a job that produced nothing, and names what exceeds the draws', () => {
    expect(giveBack(drawn, 100).back.map((b) => [b.draw.lotId, b.amount])).toEqual([
      [null, 20],
      ['late', 50],
      ['soon', 30],
    ]);
    expect(giveBack(drawn, 105).beyond).toBe(5);
    expect(giveBack([], 5)).toEqual({ back: [], beyond: 5 });
  });
});
