import { expect, it } from 'vitest';
import { addDays, dayIn, dayStartIn } from '../../src/platform/time-zone.js';
import { demoTemplate, generateBody, waitForEnd } from '../generate/generation-helpers.js';
import { describeServer } from '../helpers/suite.js';
import { registerUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

describeServer('admin: 数据看板', () => {
  const ctx = useTestApp({ admin: true });

  it('counts today’s generations, images and active users, with every day of the window', async () => {
    const users = [await registerUser(ctx.app), await registerUser(ctx.app)];
    for (const [index, user] of users.entries()) {
      const ink = await demoTemplate(ctx.app, user.token, '水墨山水');
      const submit = await ctx.app.call('POST', '/api/generate/task', {
        token: user.token,
        body: generateBody(ink, { width: 256, height: 256, steps: 6, batchSize: index + 1 }),
      });
      await waitForEnd(ctx.app, user.token, submit.body.data.generateId);
    }
    const res = await ctx.app.call('GET', '/api/admin/dashboard?days=7', { token: ctx.admin });
    expect(res.body.code).toBe(0);
    const { days, totals, queue, backends } = res.body.data;
    expect(days).toHaveLength(7);
    expect(days.at(-1)).toEqual({
      date: dayIn(Date.now(), 'Asia/Shanghai'),
      generations: 2,
      images: 3,
      activeUsers: 2,
      paidOrders: 0,
      revenueFen: 0,
    });
    expect(days[0]).toMatchObject({ generations: 0, images: 0, activeUsers: 0 });
    expect(totals).toMatchObject({ works: 3, publicWorks: 0 });
    expect(totals.users).toBeGreaterThanOrEqual(3);
    expect(queue).toEqual({ waiting: 0, running: 0 });
    expect(backends).toEqual([{ name: '内置演示引擎', healthy: true, busy: false }]);
  });

  it('buckets runs by Beijing day: a run at 00:30 Beijing time (16:30 UTC the day before) counts for that day', async () => {
    const today = dayIn(Date.now(), 'Asia/Shanghai');
    const yesterday = addDays(today, -1);
    const halfPast = new Date(dayStartIn(yesterday, 'Asia/Shanghai') + 30 * 60_000).toISOString();
    expect(halfPast.slice(0, 10)).toBe(addDays(yesterday, -1));
    await ctx.app.db.updateTable('generation_jobs').set({ queued_at: halfPast }).execute();
    const res = await ctx.app.call('GET', '/api/admin/dashboard?days=7', { token: ctx.admin });
    const { days } = res.body.data;
    expect(days.map((day: { date: string }) => day.date).slice(-2)).toEqual([yesterday, today]);
    expect(days.at(-2)).toEqual({
      date: yesterday,
      generations: 2,
      images: 3,
      activeUsers: 2,
      paidOrders: 0,
      revenueFen: 0,
    });
    expect(days.at(-1)).toMatchObject({ generations: 0 });
    expect(days.at(-3)).toMatchObject({ generations: 0 });
  });

  it('is for admins only and checks its window', async () => {
    const user = await registerUser(ctx.app);
    expect((await ctx.app.call('GET', '/api/admin/dashboard', { token: user.token })).status).toBe(403);
    const tooLong = await ctx.app.call('GET', '/api/admin/dashboard?days=400', { token: ctx.admin });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.msg).toContain('天数不能超过 90');
  });
});
