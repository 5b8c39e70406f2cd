import { MARK_POSITIONS } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { MARK_POSITION_OPTIONS } from './compliance-form';

describe('MARK_POSITION_OPTIONS', () => {
  it('offers every corner once, top row first, by its Chinese name', () => {
    expect(MARK_POSITION_OPTIONS.map((option) => option.value).sort()).toEqual([...MARK_POSITIONS].sort());
    expect(MARK_POSITION_OPTIONS.map((option) => option.label)).toEqual(['左上角', '右上角', '左下角', '右下角']);
  });
});
