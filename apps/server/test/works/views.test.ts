import { expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { registerUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { seedWorks } from './work-fixtures.js';

describeServer('works: a viewer counts once a day, however often and however fast they open a work', () => {
  const ctx = useTestApp({ users: ['author'] });

  const open = (workId: string, headers: Record<string, string>) =>
    ctx.app.app.inject({ method: 'GET', url: `/api/works/public/detail?id=${workId}`, headers });

  const viewsOf = async (workId: string) => (await ctx.app.call('GET', `/api/works/public/detail?id=${workId}`)).body;

  it('300 anonymous requests at once from one address and browser add one view', async () => {
    const [workId] = await seedWorks(ctx.app, ctx.author.userId, [{ public: true }]);
    const browser = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0) Chrome/130' };
    const answers = await Promise.all(Array.from({ length: 300 }, () => open(workId!, browser)));
    expect(answers.every((res) => res.json().code === 0)).toBe(true);
    expect(Math.max(...answers.map((res) => res.json().data.views))).toBe(1);
    const again = await open(workId!, browser);
    expect(again.json().data.views).toBe(1);
    const row = await ctx.app.db
      .selectFrom('works')
      .select('views')
      .where('id', '=', workId!)
      .executeTakeFirstOrThrow();
    expect(Number(row.views)).toBe(1);
  });

  it('two users add two views, each once, whatever their address', async () => {
    const [workId] = await seedWorks(ctx.app, ctx.author.userId, [{ public: true }]);
    const [alice, bob] = [await registerUser(ctx.app), await registerUser(ctx.app)];
    await Promise.all(
      [alice, bob].flatMap((user) =>
        Array.from({ length: 20 }, (_, i) =>
          open(workId!, { authorization: `Bearer ${user.token}`, 'user-agent': `browser ${i}` }),
        ),
      ),
    );
    // The call below has no user agent: one more anonymous viewer.
    expect((await viewsOf(workId!)).data.views).toBe(3);
    const rank = await ctx.app.call('GET', '/api/works/public/list?order=hot&pageSize=50');
    expect(rank.body.data.list.find((w: { id: string }) => w.id === workId)).toMatchObject({ views: 3 });
  });

  it('another browser from the same address is another anonymous viewer; a bad token is one too', async () => {
    const [workId] = await seedWorks(ctx.app, ctx.author.userId, [{ public: true }]);
    await open(workId!, { 'user-agent': 'Safari' });
    await open(workId!, { 'user-agent': 'Firefox' });
    const stale = await open(workId!, { authorization: 'Bearer not-a-token', 'user-agent': 'Firefox' });
    expect(stale.json()).toMatchObject({ code: 0, data: { views: 2 } });
  });
});
