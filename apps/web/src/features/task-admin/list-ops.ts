/** Immutable list edits for the step tabs, the field list and the option list. */

export function replaceAt<T>(list: readonly T[], index: number, item: T): T[] {
  return list.map((current, position) => (position === index ? item : current));
}

export function removeAt<T>(list: readonly T[], index: number): T[] {
  return list.filter((_, position) => position !== index);
}

/** Swaps the item with its neighbour above (-1) or below (1); at either end the list stays as it is. */
export function moveItem<T>(list: readonly T[], index: number, offset: -1 | 1): T[] {
  const target = index + offset;
  const item = list[index];
  const neighbour = list[target];
  if (item === undefined || neighbour === undefined) return [...list];
  const next = [...list];
  next[target] = item;
  next[index] = neighbour;
  return next;
}

export function updateAt<T>(list: readonly T[], index: number, update: (item: T) => T): T[] {
  return list.map((current, position) => (position === index ? update(current) : current));
}
