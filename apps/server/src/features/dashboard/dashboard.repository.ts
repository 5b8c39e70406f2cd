import { sql } from 'kysely';
import { countRows } from '../../platform/db/count.js';
import type { Database } from '../../platform/db/database.js';

export type DayRow = { date: string; generations: number; images: number; activeUsers: number };

/** Counts for 数据看板; one grouped query per figure, whatever the number of days. */
export class DashboardRepository {
  constructor(private readonly db: Database) {}

  /**
   * Step runs per day of the window: how many, images produced, distinct users. `days` name each day and the ISO instant it
   * begins, oldest first, and `end` where the last ends; the days come from the caller (in the display
   * zone), so the SQL only compares ISO text, the same on both databases.
   */
  async days(days: { date: string; start: string }[], end: string): Promise<DayRow[]> {
    const first = days[0];
    if (!first) return [];
    const newestFirst = [...days].reverse();
    const dayOf = sql<string>`case ${sql.join(
      newestFirst.map((day) => sql`when queued_at >= ${day.start} then ${day.date}`),
      sql` `,
    )} end`;
    const rows = await this.db
      .selectFrom((eb) =>
        eb
          .selectFrom('generation_jobs')
          .select([dayOf.as('date'), 'produced', 'user_id'])
          .where('queued_at', '>=', first.start)
          .where('queued_at', '<', end)
          .as('runs'),
      )
      .select([
        'runs.date',
        (eb) => eb.fn.countAll<string | number>().as('generations'),
        (eb) => eb.fn.sum<string | number | null>('runs.produced').as('images'),
        (eb) => eb.fn.count<string | number>('runs.user_id').distinct().as('activeUsers'),
      ])
      .groupBy('runs.date')
      .execute();
    return rows.map((row) => ({
      date: row.date,
      generations: Number(row.generations),
      images: Number(row.images ?? 0),
      activeUsers: Number(row.activeUsers),
    }));
  }

  async totals() {
    const [users, works, publicWorks] = await Promise.all([
      countRows(this.db.selectFrom('users')),
      countRows(this.db.selectFrom('works')),
      countRows(this.db.selectFrom('works').where('public', '=', 1).where('hidden', '=', 0)),
    ]);
    return { users, works, publicWorks };
  }
}
