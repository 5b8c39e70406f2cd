import { sql } from 'kysely';
import { countRows } from '../../platform/db/count.js';
import type { Database } from '../../platform/db/database.js';

export type DayRow = { date: string; generations: number; images: number; activeUsers: number };
export type RevenueRow = { date: string; paidOrders: number; revenueFen: number };

/** Counts for 数据看板; one grouped query per figure, whatever the number of days. */
export class DashboardRepository {
  constructor(private readonly db: Database) {}

  /** Step runs per UTC day since `since` (ISO): how many, images produced, distinct users. */
  async days(since: string): Promise<DayRow[]> {
    // Timestamps are ISO text on both databases, so the first ten characters are the UTC day.
    const day = sql<string>`substr(queued_at, 1, 10)`;
    const rows = await this.db
      .selectFrom('generation_jobs')
      .select([
        day.as('date'),
        (eb) => eb.fn.countAll<string | number>().as('generations'),
        (eb) => eb.fn.sum<string | number | null>('produced').as('images'),
        (eb) => eb.fn.count<string | number>('user_id').distinct().as('activeUsers'),
      ])
      .where('queued_at', '>=', since)
      .groupBy(day)
      .execute();
    return rows.map((row) => ({
      date: row.date,
      generations: Number(row.generations),
      images: Number(row.images ?? 0),
      activeUsers: Number(row.activeUsers),
    }));
  }

  /** Orders paid per UTC day since `since` (ISO): how many and their amounts (before refunds). */
  async revenue(since: string): Promise<RevenueRow[]> {
    const day = sql<string>`substr(paid_at, 1, 10)`;
    const rows = await this.db
      .selectFrom('orders')
      .select([
        day.as('date'),
        (eb) => eb.fn.countAll<string | number>().as('paidOrders'),
        (eb) => eb.fn.sum<string | number | null>('amount_fen').as('revenueFen'),
      ])
      .where('paid_at', '>=', since)
      .groupBy(day)
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
