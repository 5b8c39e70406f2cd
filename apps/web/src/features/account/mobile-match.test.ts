import { describe, expect, it } from 'vitest';
import { matchesMaskedMobile } from './mobile-match';

describe('matchesMaskedMobile', () => {
  it('accepts a number whose visible digits agree', () => {
    expect(matchesMaskedMobile('13812340000', '138****0000')).toBe(true);
    expect(matchesMaskedMobile(' 13899990000 ', '138****0000')).toBe(true);
  });

  it('rejects other numbers and a missing mask', () => {
    expect(matchesMaskedMobile('13912340000', '138****0000')).toBe(false);
    expect(matchesMaskedMobile('1381234000', '138****0000')).toBe(false);
    expect(matchesMaskedMobile('13812340000', null)).toBe(false);
  });
});
