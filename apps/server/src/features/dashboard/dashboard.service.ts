import type { Dashboard } from '@huafang/contracts';
import type { Repositories } from '../../repositories.js';
import type { BackendPool } from '../backends/backend-pool.js';
import type { JobQueue } from '../generate/job-queue.js';

const DAY_MS = 86_400_000;

/** 数据看板: generations, active users, paid orders and revenue per day, totals, the queue now and the backends. */
export class DashboardService {
  constructor(
    private readonly repos: Repositories,
    private readonly queue: JobQueue,
    private readonly pool: BackendPool,
  ) {}

  /** The last `dayCount` days (UTC), today included. */
  async dashboard(dayCount: number): Promise<Dashboard> {
    const repo = this.repos.dashboard;
    const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    const first = today - (dayCount - 1) * DAY_MS;
    const since = new Date(first).toISOString();
    const [rows, revenue, totals] = await Promise.all([repo.days(since), repo.revenue(since), repo.totals()]);
    const byDate = new Map(rows.map((row) => [row.date, row]));
    const revenueByDate = new Map(revenue.map((row) => [row.date, row]));
    // Every day of the window, the quiet ones as zeros, oldest first.
    const days = Array.from({ length: dayCount }, (_, i) => {
      const date = new Date(first + i * DAY_MS).toISOString().slice(0, 10);
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
