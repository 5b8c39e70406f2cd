import type { CREDIT_REASON_LABELS } from '@huafang/contracts';
import { beforeAll, expect, it } from 'vitest';
import { creditsOf, demoTemplate, generateBody, waitForEnd } from '../generate/generation-helpers.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';

const SMALL = { width: 256, height: 256, steps: 4, batchSize: 1 };

describeServer('算力明细: every change of a user’s credits, with its reason', () => {
  const ctx = useTestApp({ admin: true, users: ['user', 'other'] });
  const ledger = (token: string, query = '') => ctx.app.call('GET', `/api/account/credits/ledger${query}`, { token });

  beforeAll(async () => {
    const ink = await demoTemplate(ctx.app, ctx.user.token, '水墨山水');
    const submit = await ctx.app.call('POST', '/api/generate/task', {
      token: ctx.user.token,
      body: generateBody(ink, SMALL),
    });
    expect(submit.body.code).toBe(0);
    await waitForEnd(ctx.app, ctx.user.token, submit.body.data.generateId);
    const grant = await ctx.app.call('POST', '/api/admin/users/credits', {
      token: ctx.admin,
      body: { userId: ctx.user.userId, amount: 50, remark: '活动奖励' },
    });
    expect(grant.body.code).toBe(0);
  });

  it('lists the sign-up credits, the generation with its template, and the admin’s grant, newest first', async () => {
    const res = await ledger(ctx.user.token);
    expect(res.body.code).toBe(0);
    const page = res.body.data;
    expect(page.credits).toBe(await creditsOf(ctx.app, ctx.user.token));
    const reasons = page.list.map((entry: { reason: keyof typeof CREDIT_REASON_LABELS }) => entry.reason);
    expect(reasons[0]).toBe('grant');
    expect(reasons.at(-1)).toBe('signup');
    expect(reasons).toContain('charge');
    expect(page.list[0]).toMatchObject({ delta: 50, detail: '活动奖励', sourceType: 'admin', balance: page.credits });
    const charge = page.list.find((entry: { reason: string }) => entry.reason === 'charge');
    expect(charge).toMatchObject({ sourceType: 'job', detail: '水墨山水 · 第 1 步' });
    expect(charge.delta).toBeLessThan(0);
    // The changes add up to the balance: nothing is missing.
    expect(page.list.reduce((sum: number, entry: { delta: number }) => sum + entry.delta, 0)).toBe(page.credits);
  });

  it('shows each user only their own changes', async () => {
    const page = (await ledger(ctx.other.token)).body.data;
    expect(page.list.map((entry: { reason: string }) => entry.reason)).toEqual(['signup']);
  });

  it('asks a guest to log in and answers bad paging in Chinese', async () => {
    const guest = await ctx.app.call('GET', '/api/account/credits/ledger');
    expect(guest.body.code).toBe(401);
    const bad = await ledger(ctx.user.token, '?pageSize=500');
    expect(bad.body).toMatchObject({ code: -1, data: null });
    expect(bad.body.msg).toContain('每页条数不能超过 100');
  });

  it('pages without repeating a change', async () => {
    const first = (await ledger(ctx.user.token, '?current=1&pageSize=2')).body.data;
    const second = (await ledger(ctx.user.token, '?current=2&pageSize=2')).body.data;
    expect(first.total).toBeGreaterThanOrEqual(3);
    const ids = [...first.list, ...second.list].map((entry: { id: string }) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
