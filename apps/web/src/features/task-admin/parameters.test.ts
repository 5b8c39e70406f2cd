import { describe, expect, it } from 'vitest';
import { extraParameterNames, formatLooseValue, parseLooseValue, setParameter } from './parameters';

describe('parameter defaults', () => {
  it('sets a value and removes emptied ones', () => {
    expect(setParameter({ steps: 20 }, 'cfgScale', 7)).toEqual({ steps: 20, cfgScale: 7 });
    expect(setParameter({ steps: 20, seed: -1 }, 'seed', null)).toEqual({ steps: 20 });
    expect(setParameter({ sampler: 'Euler' }, 'sampler', '')).toEqual({});
  });

  it('lists the parameters without their own input', () => {
    expect(extraParameterNames({ steps: 20, scale: 2, controlNets: [] })).toEqual(['scale', 'controlNets']);
  });

  it('reads numbers, booleans and JSON, and keeps other text as text', () => {
    expect(parseLooseValue('2')).toBe(2);
    expect(parseLooseValue('true')).toBe(true);
    expect(parseLooseValue('[{"weight":1}]')).toEqual([{ weight: 1 }]);
    expect(parseLooseValue('Euler a')).toBe('Euler a');
    expect(parseLooseValue('  ')).toBeUndefined();
    expect(formatLooseValue('Euler a')).toBe('Euler a');
    expect(formatLooseValue([1])).toBe('[1]');
  });
});
