import { beforeAll, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import { demoTemplate, generateBody, waitForEnd } from '../generate/generation-helpers.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';

describeServer('prompt history: pinned first, pin, unpin, delete, search', () => {
  const ctx = useTestApp({ users: ['alice', 'bob'] });
  let generatedId: string;
  const seeded: string[] = [];
  beforeAll(async () => {
    const ink = await demoTemplate(ctx.app, ctx.alice.token, '水墨山水');
    const submit = await ctx.app.call('POST', '/api/generate/task', {
      token: ctx.alice.token,
      body: generateBody(ink, { width: 256, height: 256, steps: 6 }),
    });
    await waitForEnd(ctx.app, ctx.alice.token, submit.body.data.generateId);
    const row = await ctx.app.db
      .selectFrom('prompt_history')
      .select('id')
      .where('user_id', '=', ctx.alice.userId)
      .executeTakeFirstOrThrow();
    generatedId = row.id;
    // 20 older entries, as earlier generations would have left them.
    for (let i = 0; i < 20; i++) {
      const id = newId();
      seeded.push(id);
      await ctx.app.db
        .insertInto('prompt_history')
        .values({
          id,
          user_id: ctx.alice.userId,
          generation_id: newId(),
          prompt_group: JSON.stringify([{ id: `p${i}`, groupName: `词${i}`, promptText: `word${i}`, custom: '1' }]),
          negative_prompt_group: '[]',
          pin: 0,
          created_at: new Date(Date.UTC(2026, 9, 1, 0, i)).toISOString(),
        })
        .execute();
    }
  });

  const page = (query: string, token = ctx.alice.token) =>
    ctx.app.call('GET', `/api/prompt/history/page${query}`, { token });

  it('records every generation and pages newest first with page size 15 by default', async () => {
    const first = await page('');
    expect(first.body.data).toMatchObject({ current: 1, pageSize: 15, total: 21 });
    expect(first.body.data.list[0]).toMatchObject({ id: generatedId, templateName: '水墨山水', pin: 0 });
    expect(first.body.data.list[0].promptGroup.length).toBeGreaterThan(0);
    expect(first.body.data.list[1].id).toBe(seeded[19]);
    expect((await page('?current=2')).body.data.list).toHaveLength(6);
    expect((await page('?current=5')).body.data).toMatchObject({ list: [], total: 21 });
    expect((await page('?pageSize=500')).status).toBe(400);
    expect((await page('', ctx.bob.token)).body.data.total).toBe(0);
  });

  it('puts pinned entries first and unpins them; another user’s entry is not found', async () => {
    const pin = await ctx.app.call('GET', `/api/prompt/history/pin/${seeded[0]}`, { token: ctx.alice.token });
    expect(pin.body).toMatchObject({ code: 0, msg: '已置顶' });
    expect((await page('')).body.data.list[0]).toMatchObject({ id: seeded[0], pin: 1 });
    expect(
      (await ctx.app.call('GET', `/api/prompt/history/pin/${seeded[1]}`, { token: ctx.bob.token })).body.code,
    ).toBe(404);
    await ctx.app.call('GET', `/api/prompt/history/unpin/${seeded[0]}`, { token: ctx.alice.token });
    expect((await page('')).body.data.list[0].id).toBe(generatedId);
  });

  it('searches the words and deletes only the user’s own entries', async () => {
    const found = await page(`?keyword=${encodeURIComponent('词7')}`);
    expect(found.body.data.list.map((i: any) => i.id)).toEqual([seeded[7]]);

    const del = (token: string, ids: string[]) =>
      ctx.app.call('DELETE', '/api/prompt/history', { token, body: { ids } });
    expect((await del(ctx.bob.token, [seeded[2]!])).body.code).toBe(404);
    expect((await del(ctx.alice.token, [seeded[2]!, 'not-mine'])).body.code).toBe(404);
    expect((await page('')).body.data.total).toBe(21);
    expect((await del(ctx.alice.token, [seeded[2]!, seeded[3]!])).body).toMatchObject({ code: 0, msg: '删除成功' });
    expect((await page('')).body.data.total).toBe(19);
    expect((await del(ctx.alice.token, [])).status).toBe(400);
  });
});
