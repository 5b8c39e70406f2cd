import type { SelectQueryBuilder } from 'kysely';

/** Rows matched by a query; PostgreSQL answers count(*) as a string, SQLite as a number. */
export async function countRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): Promise<number> {
  const row = await query.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
  return Number((row as unknown as { n: string | number }).n);
}
