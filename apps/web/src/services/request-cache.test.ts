import { describe, expect, it } from 'vitest';
import { buildUrl, RequestCache } from './request-cache';

describe('RequestCache', () => {
  it('returns a value until its ttl runs out', () => {
    const cache = new RequestCache();
    cache.set('/api/help/type', ['a'], 60_000, 0);
    expect(cache.get('/api/help/type', 59_999)).toEqual({ value: ['a'] });
    expect(cache.get('/api/help/type', 60_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps falsy values distinguishable from a miss', () => {
    const cache = new RequestCache();
    cache.set('k', null, 1_000, 0);
    expect(cache.get('k', 1)).toEqual({ value: null });
    expect(cache.get('other', 1)).toBeUndefined();
  });

  it('ignores a zero ttl and empties on clear', () => {
    const cache = new RequestCache();
    cache.set('a', 1, 0, 0);
    expect(cache.get('a', 0)).toBeUndefined();
    cache.set('b', 2, 1_000, 0);
    cache.clear();
    expect(cache.get('b', 1)).toBeUndefined();
  });
});

describe('buildUrl', () => {
  it('sorts keys so equal queries share a cache key, and drops empty values', () => {
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
