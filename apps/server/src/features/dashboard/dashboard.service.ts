import type { Dashboard } from '@huafang/contracts';
import { addDays, dayIn, dayStartIn } from '../../platform/time-zone.js';
import type { Repositories } from '../../repositories.js';
import type { BackendPool } from '../backends/backend-pool.js';
import type { JobQueue } from '../generate/job-queue.js';

/** 数据看板: generations, active users, paid orders and revenue per day, totals, the queue now and the backends. */
export class DashboardService {
  constructor(
    private readonly repos: Repositories,
    private readonly queue: JobQueue,
    private readonly pool: BackendPool,
    private readonly timeZone: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** The last `dayCount` days in the display zone (Beijing by default), today included. */
  async dashboard(dayCount: number): Promise<Dashboard> {
    const repo = this.repos.dashboard;
    const today = dayIn(this.now(), this.timeZone);
    const window = Array.from({ length: dayCount }, (_, i) => {
      const date = addDays(today, i - dayCount + 1);
      return { date, start: new Date(dayStartIn(date, this.timeZone)).toISOString() };
    });
    const end = new Date(dayStartIn(addDays(today, 1), this.timeZone)).toISOString();
    const [rows, revenue, totals] = await Promise.all([
      repo.days(window, end),
      repo.revenue(window, end),
      repo.totals(),
    ]);
    const byDate = new Map(rows.map((row) => [row.date, row]));
    const revenueByDate = new Map(revenue.map((row) => [row.date, row]));
    // Every day of the window, the quiet ones as zeros, oldest first.
    const days = window.map(({ date }) => {
      const paid = revenueByDate.get(date);
      return {
        ...(byDate.get(date) ?? { date, generations: 0, images: 0, activeUsers: 0 }),
        paidOrders: paid?.paidOrders ?? 0,
        revenueFen: paid?.revenueFen ?? 0,
      };
    });
    const backends = (await this.pool.list()).map((b) => ({ name: b.name, healthy: b.healthy, busy: b.busy }));
    return { days, totals, queue: await this.queue.stats(), backends };
  }
}
