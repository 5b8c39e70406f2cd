import { describe, expect, it } from 'vitest';
import { remainingBatch } from '../../src/features/generate/job-inputs.js';
import type { JobPayload } from '../../src/features/generate/job-payload.js';

const payload = (seed: number) => ({ parameters: { seed } }) as unknown as JobPayload;
const kept = (...seeds: number[]) => seeds.map((seed) => ({ seed }));

describe('the batch still to paint after a stop', () => {
  it('is the whole batch on a first run', () => {
    expect(remainingBatch(payload(1000), 3, [])).toEqual([{ seed: 1000, batchSize: 3 }]);
    expect(remainingBatch(payload(-1), 3, [])).toEqual([{ seed: -1, batchSize: 3 }]);
  });

  it('paints exactly the missing seeds, whichever images were kept (ComfyUI finishes them in any order)', () => {
    expect(remainingBatch(payload(1000), 3, kept(1002))).toEqual([{ seed: 1000, batchSize: 2 }]);
    expect(remainingBatch(payload(1000), 3, kept(1001))).toEqual([
      { seed: 1000, batchSize: 1 },
      { seed: 1002, batchSize: 1 },
    ]);
    expect(remainingBatch(payload(1000), 4, kept(1000, 1002))).toEqual([
      { seed: 1001, batchSize: 1 },
      { seed: 1003, batchSize: 1 },
    ]);
    expect(remainingBatch(payload(1000), 3, kept(1000))).toEqual([{ seed: 1001, batchSize: 2 }]);
  });

  it('works out where a drawn (-1) seed began from the kept seeds, across the wrap', () => {
    expect(remainingBatch(payload(-1), 3, kept(501, 503).slice(0, 1))).toEqual([{ seed: 502, batchSize: 2 }]);
    expect(remainingBatch(payload(-1), 4, kept(503, 501))).toEqual([
      { seed: 502, batchSize: 1 },
      { seed: 504, batchSize: 1 },
    ]);
    expect(remainingBatch(payload(-1), 3, kept(0, 4294967295))).toEqual([{ seed: 1, batchSize: 1 }]);
  });

  it('goes on after the last kept image when the seeds are not seed + i (a latent batch shares one)', () => {
    expect(remainingBatch(payload(7), 3, kept(7, 7))).toEqual([{ seed: 8, batchSize: 1 }]);
  });
});
