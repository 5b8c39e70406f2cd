import { describe, expect, it } from 'vitest';
import { agedEtaSeconds, etaSeconds, secondsLeft, TurnTakingLine } from '../../src/features/generate/turn-taking.js';

type Job = { jobId: string; userId: string };
const job = (userId: string, n: number): Job => ({ jobId: `${userId}${n}`, userId });

/** Takes every job in the order the line hands them out, starting each at once. */
function drain(line: TurnTakingLine<Job>): string[] {
  const order: string[] = [];
  for (let taken = line.take((item) => item); taken; taken = line.take((item) => item)) order.push(taken.item.jobId);
  return order;
}

describe('turn-taking line', () => {
  it('lets users take turns instead of serving one user’s backlog first', () => {
    const line = new TurnTakingLine<Job>();
    for (let i = 1; i <= 3; i++) line.add(job('A', i));
    line.add(job('B', 1));
    line.add(job('B', 2));
    expect(drain(line)).toEqual(['A1', 'B1', 'A2', 'B2', 'A3']);
  });

  it('lets everyone already waiting go before a user who joins', () => {
    const line = new TurnTakingLine<Job>();
    line.add(job('A', 1));
    line.add(job('A', 2));
    line.add(job('B', 1));
    expect(line.take((item) => item)?.item.jobId).toBe('A1');
    line.add(job('C', 1));
    expect(drain(line)).toEqual(['B1', 'A2', 'C1']);
  });

  it('gives places in line that match the order jobs are handed out', () => {
    const line = new TurnTakingLine<Job>();
    for (const id of ['A1', 'A2', 'A3', 'B1', 'C1', 'C2']) line.add({ jobId: id, userId: id[0]! });
    const positions = new Map(['A1', 'A2', 'A3', 'B1', 'C1', 'C2'].map((id) => [id, line.position(id)]));
    const order = drain(line);
    expect(order.map((id) => positions.get(id))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(line.position('A1')).toBe(0);
  });

  it('predicts where a new job would land', () => {
    const line = new TurnTakingLine<Job>();
    line.add(job('A', 1));
    line.add(job('A', 2));
    line.add(job('B', 1));
    // B's second job comes after A1, B1 and A2; a newcomer's first after one job of each.
    expect(line.positionIfAdded('B')).toBe(4);
    expect(line.positionIfAdded('C')).toBe(3);
  });

  it('skips a user who may not start now and keeps their turn for later', () => {
    const line = new TurnTakingLine<Job>();
    line.add(job('A', 1));
    line.add(job('B', 1));
    expect(line.take((item) => (item.userId === 'A' ? null : item))?.item.jobId).toBe('B1');
    expect(line.take((item) => item)?.item.jobId).toBe('A1');
    expect(line.size).toBe(0);
  });

  it('takes a cancelled job out and a retried job back at the front of its user’s line', () => {
    const line = new TurnTakingLine<Job>();
    line.add(job('A', 1));
    line.add(job('A', 2));
    expect(line.remove('A1')?.jobId).toBe('A1');
    expect(line.remove('A1')).toBeNull();
    line.add(job('A', 9), true);
    expect(drain(line)).toEqual(['A9', 'A2']);
  });
});

describe('ETA', () => {
  it('counts the work ahead over the backends that can take it, plus the job itself', () => {
    expect(etaSeconds({ position: 1, units: 10, secondsPerUnit: 1, capacity: 1, runningLeftSeconds: 0 })).toBe(10);
    expect(etaSeconds({ position: 3, units: 10, secondsPerUnit: 1, capacity: 2, runningLeftSeconds: 4 })).toBe(22);
    expect(etaSeconds({ position: 2, units: 10, secondsPerUnit: 1, capacity: 0, runningLeftSeconds: 0 })).toBe(20);
  });

  it('counts a wait down, and lets it grow again once the estimate is passed instead of freezing', () => {
    expect([0, 4, 8, 10, 12, 20].map((t) => secondsLeft(10, t))).toEqual([10, 6, 2, 0, 1, 5]);
    // A waiting job's ETA, written 0 … 12 s ago: own 2 s stays, the 8 s wait counts down, then grows.
    const standing = { etaSeconds: 10, ownSeconds: 2 };
    expect([0, 3, 8, 9, 12].map((t) => agedEtaSeconds(standing, t))).toEqual([10, 7, 2, 3, 4]);
  });
});
