import { expect, it } from 'vitest';
import { CURSOR_REFUSED } from '../../src/platform/db/keyset.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { seedWorks } from './work-fixtures.js';

type Page = { list: { id: string }[]; current: number; pageSize: number; total: number; nextCursor?: string | null };

describeServer('works: keyset continuation of the galleries a client scrolls', () => {
  const ctx = useTestApp({ users: ['alice', 'bob'] });

  const get = async (url: string, token?: string): Promise<Page> => {
    const res = await ctx.app.call('GET', url, token ? { token } : {});
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    return res.body.data;
  };

  /** Every item of the list by `current` pages, then by following nextCursor from page 1: the same, in order. */
  const sameBothWays = async (path: string, token?: string) => {
    const byNumber: string[] = [];
    for (let current = 1; ; current++) {
      const page = await get(`${path}&current=${current}&pageSize=7`, token);
      byNumber.push(...page.list.map((w) => w.id));
      if (page.list.length < 7) break;
    }
    const byCursor: string[] = [];
    let page = await get(`${path}&pageSize=7`, token);
    byCursor.push(...page.list.map((w) => w.id));
    while (page.nextCursor) {
      page = await get(`${path}&pageSize=7&cursor=${page.nextCursor}`, token);
      expect(page.total).toBe(byNumber.length);
      byCursor.push(...page.list.map((w) => w.id));
    }
    expect(page.list.length).toBeLessThan(7);
    expect(byCursor).toEqual(byNumber);
    expect(new Set(byCursor).size).toBe(byCursor.length);
    return byCursor;
  };

  it('walks 我的作品 and the omnibus by cursor through the same items as by page number, ties included', async () => {
    // Three works share each creation and publication time: the id decides among them, on both paths.
    const at = (i: number) => new Date(Date.UTC(2026, 10, 1) + Math.floor(i / 3) * 60_000).toISOString();
    const mine = await seedWorks(
      ctx.app,
      ctx.alice.userId,
      Array.from({ length: 30 }, (_, i) => ({
        createdAt: at(i),
        public: i % 4 !== 0,
        publishedAt: at(i),
        prompt: i % 2 ? `山水 ${i}` : `人物 ${i}`,
      })),
    );
    await seedWorks(
      ctx.app,
      ctx.bob.userId,
      Array.from({ length: 12 }, (_, i) => ({ createdAt: at(i), public: true, publishedAt: at(i) })),
    );
    const profile = await sameBothWays('/api/works/profile?x=1', ctx.alice.token);
    expect(profile).toHaveLength(30);
    expect(new Set(profile)).toEqual(new Set(mine));
    expect(
      await sameBothWays(`/api/works/profile?keyword=${encodeURIComponent('山水')}`, ctx.alice.token),
    ).toHaveLength(15);
    expect(await sameBothWays('/api/works/public?order=latest')).toHaveLength(22 + 12);
    expect(await sameBothWays('/api/works/public?order=hot', ctx.bob.token)).toHaveLength(22 + 12);
  });

  it('keeps page numbers as the spec has them, and refuses a cursor it did not hand out', async () => {
    const first = await get('/api/works/profile?current=2&pageSize=5', ctx.alice.token);
    expect(first).toMatchObject({ current: 2, pageSize: 5, total: 30 });
    expect(first.list).toHaveLength(5);
    for (const cursor of ['not-a-cursor', Buffer.from('[1,"x"]').toString('base64url')]) {
      const res = await ctx.app.call('GET', `/api/works/profile?cursor=${cursor}`, { token: ctx.alice.token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: expect.any(Number), msg: CURSOR_REFUSED, data: null });
    }
    // A hot cursor holds a score, a latest one a time: one list's cursor is refused by the other.
    const latest = await get('/api/works/public?order=latest&pageSize=3');
    const res = await ctx.app.call('GET', `/api/works/public?order=hot&cursor=${latest.nextCursor}`);
    expect(res.status).toBe(400);
  });
});
