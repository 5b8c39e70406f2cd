import { describe, expect, it } from 'vitest';
import { createNoticeGate } from './notice-gate';

describe('notice gate (one notice at a time)', () => {
  it('lets the first notice through and suppresses others during its duration', () => {
    const gate = createNoticeGate();
    expect(gate.tryOpen(1_000, 3_000)).toBe(true);
    expect(gate.tryOpen(1_500, 3_000)).toBe(false);
    expect(gate.tryOpen(3_999, 3_000)).toBe(false);
  });

  it('accepts a new notice once the current one has run its time', () => {
    const gate = createNoticeGate();
    gate.tryOpen(0, 2_500);
    expect(gate.tryOpen(2_500, 2_500)).toBe(true);
    expect(gate.tryOpen(4_000, 2_500)).toBe(false);
  });

  it('a suppressed notice does not extend the current one', () => {
    const gate = createNoticeGate();
    gate.tryOpen(0, 3_000);
    gate.tryOpen(2_000, 3_000);
    expect(gate.tryOpen(3_000, 3_000)).toBe(true);
  });

  it('frees the screen when the notice is closed early', () => {
    const gate = createNoticeGate();
    gate.tryOpen(0, 3_000);
    gate.release();
    expect(gate.tryOpen(100, 3_000)).toBe(true);
  });
});
