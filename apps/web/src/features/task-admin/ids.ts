/** A short id for items made in the browser (prompt words, new steps' tab keys); unique enough within one template. */
export function localId(prefix = 'n'): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}
