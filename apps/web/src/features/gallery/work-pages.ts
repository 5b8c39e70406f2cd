import type { Page } from '@huafang/contracts';

/**
 * The works of the pages loaded so far, each once: 热门 orders by views, which change while the reader scrolls,
 * so a work can move onto the next page after it was already shown.
 */
export function worksOfPages<T extends { id: string }>(pages: Page<T>[] | undefined): T[] {
  const seen = new Set<string>();
  const works: T[] = [];
  for (const work of pages?.flatMap((page) => page.list) ?? []) {
    if (seen.has(work.id)) continue;
    seen.add(work.id);
    works.push(work);
  }
  return works;
}
