import { expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { SCALE_OUT } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { seedWorks } from './work-fixtures.js';

type Page = { list: { id: string }[]; total: number };

describeServer('works: 我的作品 counted by its counter and paged from either end', () => {
  const ctx = useTestApp({ users: ['alice', 'bob'] });

  const page = async (current: number, pageSize: number, token = ctx.alice.token): Promise<Page> => {
    const res = await ctx.app.call('GET', `/api/works/profile?current=${current}&pageSize=${pageSize}`, { token });
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    return res.body.data;
  };
  /** The user's works as the list orders them, and how many there are, counted from the rows themselves. */
  const truth = async (userId: string) =>
    (
      await ctx.app.db
        .selectFrom('works')
        .select('id')
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute()
    ).map((row) => row.id);
  const counter = async (userId: string) =>
    (await ctx.app.db.selectFrom('work_counts').select('works').where('user_id', '=', userId).executeTakeFirst())
      ?.works;

  it('gives every page by number, those past the middle picked from the oldest end, ties included', async () => {
    // Two works share each creation time: the id decides among them, from either end.
    const at = (i: number) => new Date(Date.UTC(2026, 10, 1) + Math.floor(i / 2) * 60_000).toISOString();
    await seedWorks(
      ctx.app,
      ctx.alice.userId,
      Array.from({ length: 23 }, (_, i) => ({ createdAt: at(i) })),
    );
    await seedWorks(ctx.app, ctx.bob.userId, [{}, {}, {}]);
    const expected = await truth(ctx.alice.userId);
    for (const size of [1, 5, 7, 23, 40]) {
      const walked: string[] = [];
      for (let current = 1; current <= Math.ceil(23 / size); current++) {
        const answer = await page(current, size);
        expect(answer.total).toBe(23);
        expect(answer.list.map((w) => w.id)).toEqual(expected.slice((current - 1) * size, current * size));
        walked.push(...answer.list.map((w) => w.id));
      }
      expect(walked).toEqual(expected);
      expect(await page(Math.ceil(23 / size) + 1, size)).toMatchObject({ list: [], total: 23 });
    }
    // A filter counts its own rows.
    const filtered = await ctx.app.call('GET', '/api/works/profile?keyword=test%20prompt%201&pageSize=40', {
      token: ctx.alice.token,
    });
    expect(filtered.body.data.total).toBe(11);
    expect((await page(1, 5, ctx.bob.token)).total).toBe(3);
  });

  it('keeps the total right while works are added, published and deleted in parallel', async () => {
    const before = await truth(ctx.alice.userId);
    const doomed = await seedWorks(
      ctx.app,
      ctx.alice.userId,
      Array.from({ length: 12 }, () => ({})),
    );
    const kept = await seedWorks(
      ctx.app,
      ctx.alice.userId,
      Array.from({ length: 6 }, () => ({})),
    );
    // Scale-out: the requests are shared between two API processes.
    const other = SCALE_OUT ? await ctx.app.sibling() : ctx.app;
    const token = ctx.alice.token;
    await Promise.all([
      // Each pair of works deleted twice at once: only the rows really deleted are taken off.
      ...Array.from({ length: 6 }, (_, i) => doomed.slice(i * 2, i * 2 + 2)).flatMap((ids) => [
        ctx.app.call('DELETE', '/api/works', { token, body: { ids } }),
        other.call('DELETE', '/api/works', { token, body: { ids } }),
      ]),
      ...kept.map((id, i) =>
        (i % 2 ? other : ctx.app).call('POST', '/api/works/publish', { token, body: { id, public: true } }),
      ),
      seedWorks(
        ctx.app,
        ctx.alice.userId,
        Array.from({ length: 5 }, () => ({})),
      ),
      seedWorks(
        ctx.app,
        ctx.alice.userId,
        Array.from({ length: 4 }, () => ({})),
      ),
      ...Array.from({ length: 6 }, () => page(1, 10)),
    ]);
    if (other !== ctx.app) await other.close();
    const now = await truth(ctx.alice.userId);
    expect(now).toHaveLength(before.length + 6 + 5 + 4);
    expect(await counter(ctx.alice.userId)).toBe(now.length);
    expect((await page(1, 10)).total).toBe(now.length);
    const last = Math.ceil(now.length / 10);
    expect((await page(last, 10)).list.map((w) => w.id)).toEqual(now.slice((last - 1) * 10));
  });
});
