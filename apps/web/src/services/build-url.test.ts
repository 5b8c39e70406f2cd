import { describe, expect, it } from 'vitest';
import { buildUrl } from './build-url';

describe('buildUrl', () => {
  it('sorts keys so equal queries give the same address, and drops empty values', () => {
    expect(buildUrl('/api/x', { pageSize: 10, current: 1, q: undefined, r: null })).toBe(
      '/api/x?current=1&pageSize=10',
    );
    expect(buildUrl('/api/x', { b: 'Z', a: true })).toBe(buildUrl('/api/x', { a: true, b: 'Z' }));
  });

  it('leaves a url without params alone and appends to an existing query', () => {
    expect(buildUrl('/api/x')).toBe('/api/x');
    expect(buildUrl('/api/x', {})).toBe('/api/x');
    expect(buildUrl('/api/x?scope=all', { a: 1 })).toBe('/api/x?scope=all&a=1');
  });

  it('encodes Chinese and reserved characters', () => {
    expect(buildUrl('/api/x', { q: '猫 & 狗' })).toBe('/api/x?q=%E7%8C%AB+%26+%E7%8B%97');
  });
});
