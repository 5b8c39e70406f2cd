import { type RawBuilder, sql } from 'kysely';
import { countRows } from '../../platform/db/count.js';
import type { Database } from '../../platform/db/database.js';

export type DayRow = { date: string; generations: number; images: number; activeUsers: number };
export type RevenueRow = { date: string; paidOrders: number; revenueFen: number };

/** Counts for 数据看板; one grouped query per figure, whatever the number of days. */
export class DashboardRepository {
  constructor(private readonly db: Database) {}

  /**
   * Step runs per day of the window: how many, images produced, distinct users. `days` name each day and the ISO instant it
   * begins, oldest first, and `end` where the last ends; the days come from the caller (in the display
   * zone), so the SQL only compares ISO text, the same on both databases.
   */
  async days(days: Day[], end: string): Promise<DayRow[]> {
    const first = days[0];
    if (!first) return [];
    const dayOf = dayOfTime(sql.ref('queued_at'), days);
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

  /** Orders paid per day of the window (days start at `start`, the last ends at `end`): how many, and their amounts. */
  async revenue(days: Day[], end: string): Promise<RevenueRow[]> {
    const first = days[0];
    if (!first) return [];
    const dayOf = dayOfTime(sql.ref('paid_at'), days);
    const rows = await this.db
      .selectFrom((eb) =>
        eb
          .selectFrom('orders')
          .select([dayOf.as('date'), 'amount_fen'])
          .where('paid_at', '>=', first.start)
          .where('paid_at', '<', end)
          .as('paid'),
      )
      .select([
        'paid.date',
        (eb) => eb.fn.countAll<string | number>().as('paidOrders'),
        (eb) => eb.fn.sum<string | number | null>('paid.amount_fen').as('revenueFen'),
      ])
      .groupBy('paid.date')
      .execute();
    return rows.map((row) => ({
      date: row.date,
      paidOrders: Number(row.paidOrders),
      revenueFen: Number(row.revenueFen ?? 0),
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

/** A day of the dashboard's window: its date in the display zone and the instant it starts (ISO). */
type Day = { date: string; start: string };

/** The window's day a stored ISO time falls on: the latest day that started at or before it. */
function dayOfTime(column: RawBuilder<unknown>, days: Day[]): RawBuilder<string> {
  return sql<string>`case ${sql.join(
    [...days].reverse().map((day) => sql`when ${column} >= ${day.start} then ${day.date}`),
    sql` `,
  )} end`;
}
