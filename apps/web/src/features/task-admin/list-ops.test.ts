import { describe, expect, it } from 'vitest';
import { moveItem, removeAt, replaceAt, updateAt } from './list-ops';

describe('list operations', () => {
  const list: readonly string[] = ['a', 'b', 'c'];

  it('moves an item up or down and stays put at either end', () => {
    expect(moveItem(list, 1, -1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(list, 1, 1)).toEqual(['a', 'c', 'b']);
    expect(moveItem(list, 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(list, 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('replaces and removes by position without touching the original', () => {
    expect(replaceAt(list, 2, 'z')).toEqual(['a', 'b', 'z']);
    expect(removeAt(list, 0)).toEqual(['b', 'c']);
    expect(updateAt(list, 1, (item) => item.toUpperCase())).toEqual(['a', 'B', 'c']);
    expect(list).toEqual(['a', 'b', 'c']);
  });
});
