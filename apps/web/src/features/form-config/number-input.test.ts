import { describe, expect, it } from 'vitest';
import { numberInputMode } from './number-input';

describe('number keyboard', () => {
  it('asks for digits on whole numbers and a decimal point on fractional ones', () => {
    expect(numberInputMode({ min: 64, max: 2048, step: 8 })).toBe('numeric');
    expect(numberInputMode({})).toBe('numeric');
    expect(numberInputMode({ min: 1, max: 30, step: 0.5 })).toBe('decimal');
    expect(numberInputMode({ min: 0, max: 1, step: 0.05 })).toBe('decimal');
  });
});
