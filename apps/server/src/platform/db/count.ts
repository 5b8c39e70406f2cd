import type { SelectQueryBuilder } from 'kysely';

/** Rows matched by a query; PostgreSQL answers count(*) as a string, SQLite as a number. */
export async function countRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): Promise<number> {
  const row = await query.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
  return Number((row as unknown as { n: string | number }).n);
}

/** Which page of a list is asked for, as the contracts' paging fields carry it: `current` counts from 1. */
export type PageRequest = { current: number; pageSize: number };

/**
 * One page of a filtered list and how many rows the whole list holds, counted on the same filters. `pick` adds
 * what to select (joins included) and the order, which should end on a unique column so pages never overlap.
 */
export async function pageRows<DB, TB extends keyof DB, O, PickedDB, PickedTB extends keyof PickedDB, Row>(
  filtered: SelectQueryBuilder<DB, TB, O>,
  page: PageRequest,
  pick: (filtered: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<PickedDB, PickedTB, Row>,
): Promise<{ rows: Row[]; total: number }> {
  const [rows, total] = await Promise.all([
    pick(filtered)
      .limit(page.pageSize)
      .offset((page.current - 1) * page.pageSize)
      .execute(),
    countRows(filtered),
  ]);
  return { rows, total };
}

/**
 * How to read rows `offset` to `offset + pageSize` of a list of `total` rows from the end nearer to them: past the
 * middle, reversed (the list's order turned around) and counted from the far end, so a deep page steps over at most
 * half the list and the last page over none. `limit` is 0 for a page beyond the list.
 */
export function nearerEnd(total: number, offset: number, pageSize: number) {
  const beyond = total - offset - pageSize;
  if (beyond >= offset) return { reversed: false, offset, limit: pageSize };
  return { reversed: true, offset: Math.max(0, beyond), limit: Math.max(0, pageSize + Math.min(0, beyond)) };
}
