import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { migrateToLatest } from '../../src/platform/db/migrations.js';
import { newId } from '../../src/platform/ids.js';
import { describeServer } from '../helpers/suite.js';
import { loginAdmin, TEST_DB } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { seedWorks } from './work-fixtures.js';

type Page = { list: { id: string }[]; total: number };
type Order = 'latest' | 'hot';

describeServer('works: 灵感广场 counted by its counter and paged from either end', () => {
  const ctx = useTestApp({ users: ['alice', 'bob'] });

  const page = async (order: Order, current: number, pageSize: number): Promise<Page> => {
    const res = await ctx.app.call('GET', `/api/works/public?order=${order}&current=${current}&pageSize=${pageSize}`);
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    return res.body.data;
  };
  /** The omnibus as the plain query orders it, from the rows themselves. */
  const truth = async (order: Order) =>
    (
      await ctx.app.db
        .selectFrom('works')
        .select('id')
        .where('public', '=', 1)
        .where('hidden', '=', 0)
        .orderBy(order === 'hot' ? 'hot_score' : 'published_at', 'desc')
        .orderBy('id', 'desc')
        .execute()
    ).map((row) => row.id);
  const counter = async () =>
    (await ctx.app.db.selectFrom('gallery_counts').select('works').where('name', '=', 'omnibus').executeTakeFirst())
      ?.works;
  /** Every page by number, of several sizes, in both orders: the plain query's rows, in its order, with its total. */
  const everyPage = async () => {
    for (const order of ['latest', 'hot'] as const) {
      const expected = await truth(order);
      expect(await counter()).toBe(expected.length);
      for (const size of [1, 4, 7, expected.length, expected.length + 3]) {
        const last = Math.ceil(expected.length / size);
        for (let current = 1; current <= last + 1; current++) {
          const answer = await page(order, current, size);
          expect(answer.total).toBe(expected.length);
          expect(answer.list.map((w) => w.id)).toEqual(expected.slice((current - 1) * size, current * size));
        }
      }
    }
  };
  const publish = (token: string, id: string, makePublic: boolean, app = ctx.app) =>
    app.call('POST', '/api/works/publish', { token, body: { id, public: makePublic } });
  const hide = (admin: string, id: string, hidden: boolean, app = ctx.app) =>
    app.call('POST', '/api/admin/works/hide', { token: admin, body: { id, hidden } });

  it('gives every page of both orders as the plain query does, ties, hidden and withdrawn works included', async () => {
    // Three works share each publication time (and so each score); the id decides among them, from either end.
    const at = (i: number) => new Date(Date.UTC(2026, 10, 1) + Math.floor(i / 3) * 60_000).toISOString();
    const alice = await seedWorks(
      ctx.app,
      ctx.alice.userId,
      Array.from({ length: 24 }, (_, i) => ({ createdAt: at(i), public: i % 5 !== 0, publishedAt: at(i) })),
    );
    const bob = await seedWorks(
      ctx.app,
      ctx.bob.userId,
      Array.from({ length: 9 }, (_, i) => ({ createdAt: at(i), public: true, publishedAt: at(i) })),
    );
    // 热门 in few distinct scores, unlike 最新's order: long runs of ties.
    await ctx.app.db
      .updateTable('works')
      .set({ hot_score: sql<number>`case when seed % 3 = 0 then 2.5 else 1 end` })
      .where('public', '=', 1)
      .execute();
    const admin = await loginAdmin(ctx.app);
    expect((await hide(admin, alice[1]!, true)).body.code).toBe(0);
    expect((await hide(admin, bob[4]!, true)).body.code).toBe(0);
    expect((await publish(ctx.alice.token, alice[2]!, false)).body.code).toBe(0);
    // A hidden work withdrawn, then published again: still hidden, so still not listed.
    expect((await publish(ctx.bob.token, bob[4]!, false)).body.code).toBe(0);
    expect((await publish(ctx.bob.token, bob[4]!, true)).body.code).toBe(0);
    // A public work without a publication time sorts where each database puts NULLs, the same from both ends.
    await ctx.app.db.updateTable('works').set({ published_at: null }).where('id', '=', bob[7]!).execute();
    expect(await counter()).toBe(24 - 5 - 2 + 9 - 1);
    await everyPage();

    expect((await hide(admin, alice[1]!, false)).body.code).toBe(0);
    expect((await publish(ctx.alice.token, alice[0]!, true)).body.code).toBe(0);
    expect(
      (await ctx.app.call('DELETE', '/api/works', { token: ctx.bob.token, body: { ids: bob.slice(0, 3) } })).body.code,
    ).toBe(0);
    expect(await counter()).toBe(24 - 5 - 2 + 9 - 1 + 2 - 3);
    await everyPage();
  });

  it('keeps the counter right while works are published, withdrawn, hidden and deleted at once by two apps', async () => {
    const admin = await loginAdmin(ctx.app);
    const toPublish = await seedWorks(
      ctx.app,
      ctx.alice.userId,
      Array.from({ length: 8 }, () => ({})),
    );
    const toWithdraw = await seedWorks(
      ctx.app,
      ctx.alice.userId,
      Array.from({ length: 6 }, () => ({ public: true })),
    );
    const toHide = await seedWorks(
      ctx.app,
      ctx.bob.userId,
      Array.from({ length: 6 }, () => ({ public: true })),
    );
    const doomed = await seedWorks(
      ctx.app,
      ctx.bob.userId,
      Array.from({ length: 8 }, (_, i) => ({ public: i % 2 === 0 })),
    );
    const before = (await truth('latest')).length;
    expect(await counter()).toBe(before);
    // A second API process on the same database: on PostgreSQL, transactions of two pools race for each row.
    const other = await ctx.app.sibling();
    const twice = <T>(call: (app: typeof ctx.app) => Promise<T>) => [call(ctx.app), call(other)];
    try {
      await Promise.all([
        // Each change asked twice at once, once of each app: only the one that changes the row counts.
        ...toPublish.flatMap((id) => twice((app) => publish(ctx.alice.token, id, true, app))),
        ...toWithdraw.flatMap((id) => twice((app) => publish(ctx.alice.token, id, false, app))),
        ...toHide.flatMap((id) => twice((app) => hide(admin, id, true, app))),
        ...Array.from({ length: 4 }, (_, i) => doomed.slice(i * 2, i * 2 + 2)).flatMap((ids) =>
          twice((app) => app.call('DELETE', '/api/works', { token: ctx.bob.token, body: { ids } })),
        ),
        // Withdrawing and hiding the same work at once: it leaves the list once.
        publish(ctx.bob.token, toHide[0]!, false, other),
        seedWorks(
          ctx.app,
          ctx.bob.userId,
          Array.from({ length: 5 }, () => ({ public: true })),
        ),
        ...Array.from({ length: 4 }, (_, i) => page(i % 2 ? 'hot' : 'latest', 3, 5)),
      ]);
    } finally {
      await other.close();
    }
    const now = await truth('latest');
    expect(now).toHaveLength(before + 8 - 6 - 6 - 4 + 5);
    expect(await counter()).toBe(now.length);
    for (const order of ['latest', 'hot'] as const) {
      const expected = await truth(order);
      const last = Math.ceil(expected.length / 10);
      for (const current of [1, 2, last - 1, last]) {
        expect((await page(order, current, 10)).list.map((w) => w.id)).toEqual(
          expected.slice((current - 1) * 10, current * 10),
        );
      }
    }
  });

  it('counts the works already there when the migration runs, and those written while it runs', async () => {
    const shown = () => ctx.app.db.selectFrom('works').where('public', '=', 1).where('hidden', '=', 0);
    // Back to before migration 0025: no counter, no triggers.
    for (const trigger of ['gallery_counts_insert', 'gallery_counts_delete', 'gallery_counts_update']) {
      await sql.raw(`drop trigger ${trigger}${TEST_DB === 'postgres' ? ' on works' : ''}`).execute(ctx.app.db);
    }
    if (TEST_DB === 'postgres') {
      await sql`drop function gallery_counts_added, gallery_counts_removed, gallery_counts_moved`.execute(ctx.app.db);
    }
    await sql`drop table gallery_counts`.execute(ctx.app.db);
    await sql`delete from kysely_migration where name = '0025_gallery_counts'`.execute(ctx.app.db);
    const [template] = await shown().selectAll().limit(1).execute();
    const write = async (i: number) => {
      await ctx.app.db
        .insertInto('works')
        .values({ ...template!, id: newId(), generation_id: newId(), job_id: newId(), hidden: i % 3 === 0 ? 1 : 0 })
        .execute();
    };
    // A work written before the migration starts and committed after it counted would be missed by both the count
    // and the triggers: on PostgreSQL the migration's lock waits for that transaction, then counts its work.
    let migrated: Promise<void> | undefined;
    await ctx.app.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('works')
        .values({ ...template!, id: newId(), generation_id: newId(), job_id: newId() })
        .execute();
      migrated = migrateToLatest(ctx.app.db);
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    await Promise.all([migrated, ...Array.from({ length: 12 }, (_, i) => write(i))]);
    const counted = await shown()
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(await counter()).toBe(Number(counted.n));
    await everyPage();
  });
});
