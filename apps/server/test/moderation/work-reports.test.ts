import { WORK_REPORT_REASON_LABELS } from '@huafang/contracts';
import { beforeAll, expect, it } from 'vitest';
import { MODERATION_MESSAGES } from '../../src/features/moderation/publication-gate.js';
import { DECISION_MESSAGES, REPORT_MESSAGES } from '../../src/features/moderation/work-moderation.service.js';
import { describeServer } from '../helpers/suite.js';
import { registerUser, type TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { seedWorks } from '../works/work-fixtures.js';

describeServer('举报 and 作品审核 › 待审核 (moderation provider off): reports, decisions, history', () => {
  const ctx = useTestApp({ admin: true, users: { author: { nickname: '作者乙' } } });
  let readers: TestUser[];
  let works: string[];

  beforeAll(async () => {
    readers = [];
    for (const nickname of ['读者一', '读者二', '读者三']) readers.push(await registerUser(ctx.app, { nickname }));
    works = await seedWorks(ctx.app, ctx.author.userId, [
      { prompt: 'reported once', public: true },
      { prompt: 'raced', public: true },
      { prompt: 'taken down', public: true },
      { prompt: 'private' },
      { prompt: 'deleted later', public: true },
    ]);
  });

  const report = (user: TestUser | undefined, body: object) =>
    ctx.app.call('POST', '/api/works/report', { ...(user ? { token: user.token } : {}), body });
  const queue = async (kind = 'all') =>
    (await ctx.app.call('GET', `/api/admin/works/moderation?kind=${kind}&pageSize=100`, { token: ctx.admin })).body
      .data;
  const decide = (id: string, decision: 'approve' | 'remove', token = ctx.admin) =>
    ctx.app.call('POST', '/api/admin/works/moderation/decide', { token, body: { id, decision } });
  const openReports = (workId: string) =>
    ctx.app.db
      .selectFrom('moderation_items')
      .selectAll()
      .where('work_id', '=', workId)
      .where('decision_id', 'is', null)
      .execute();

  it('publishes without any check while moderation is off', async () => {
    const [id] = await seedWorks(ctx.app, ctx.author.userId, [{ prompt: 'unchecked' }]);
    const res = await ctx.app.call('POST', '/api/works/publish', {
      token: ctx.author.token,
      body: { id, public: true, hidePrompt: false },
    });
    expect(res.body).toMatchObject({ code: 0, msg: '已发布到灵感广场' });
  });

  it('takes a report of a public work with its reason, once per user', async () => {
    const [first] = works;
    expect((await report(undefined, { id: first, reason: 'porn' })).status).toBe(401);
    const res = await report(readers[0], { id: first, reason: 'porn', detail: '  画面露骨  ' });
    expect(res.body).toMatchObject({ code: 0, msg: REPORT_MESSAGES.done });
    expect((await report(readers[0], { id: first, reason: 'violence' })).body).toMatchObject({
      code: -1,
      msg: REPORT_MESSAGES.again,
    });
    expect(await openReports(first!)).toEqual([
      expect.objectContaining({
        kind: 'report',
        reporter_id: readers[0]!.userId,
        reason: 'porn',
        label: '色情低俗',
        detail: '画面露骨',
      }),
    ]);
    // The work stays public while it waits.
    const detail = await ctx.app.call('GET', `/api/works/public/detail?id=${first}`);
    expect(detail.body.code).toBe(0);
  });

  it('checks what a report says and what it is about', async () => {
    const [first, , , privateWork] = works;
    const missing = await report(readers[1], { id: first });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toContain('请选择举报原因');
    expect((await report(readers[1], { id: first, reason: 'rude' })).body.msg).toContain('请选择举报原因');
    const other = await report(readers[1], { id: first, reason: 'other', detail: '   ' });
    expect(other.body.msg).toContain('选择“其他”时请说明举报原因');
    const long = await report(readers[1], { id: first, reason: 'spam', detail: '长'.repeat(201) });
    expect(long.body.msg).toContain('补充说明不能超过 200 个字');
    expect((await report(readers[1], { id: privateWork, reason: 'spam' })).body).toMatchObject({
      code: 404,
      msg: REPORT_MESSAGES.gone,
    });
    expect((await report(readers[1], { id: 'no-such-work', reason: 'spam' })).status).toBe(404);
    expect((await report(ctx.author, { id: first, reason: 'spam' })).body).toMatchObject({
      code: -1,
      msg: REPORT_MESSAGES.own,
    });
    expect(await openReports(first!)).toHaveLength(1);
    // 其他 with words is fine.
    expect((await report(readers[1], { id: first, reason: 'other', detail: '盗用了我的照片' })).body.code).toBe(0);
  });

  it('counts one report when the same user sends it many times at once', async () => {
    const raced = works[1]!;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => report(readers[2], { id: raced, reason: 'illegal' })),
    );
    expect(answers.filter((res) => res.body.code === 0)).toHaveLength(1);
    expect(answers.filter((res) => res.body.msg === REPORT_MESSAGES.again)).toHaveLength(7);
    expect(answers.every((res) => res.status === 200)).toBe(true);
    expect(await openReports(raced)).toHaveLength(1);
  });

  it('lists reported works with every reason in the admin queue; admins only', async () => {
    expect((await ctx.app.call('GET', '/api/admin/works/moderation', { token: readers[0]!.token })).status).toBe(403);
    expect((await ctx.app.call('GET', '/api/admin/works/moderation')).status).toBe(401);
    const reported = await queue('reported');
    expect(reported.total).toBe(2);
    // The longest-waiting first.
    expect(reported.list.map((entry: any) => entry.work.id)).toEqual([works[0], works[1]]);
    expect(reported.list[0]).toMatchObject({
      work: {
        id: works[0],
        public: true,
        publishPending: false,
        author: { nickname: '作者乙' },
        prompt: 'reported once',
      },
      items: [
        {
          kind: 'report',
          verdict: null,
          label: WORK_REPORT_REASON_LABELS.porn,
          detail: '画面露骨',
          reporter: '读者一',
        },
        { kind: 'report', label: '其他', detail: '盗用了我的照片', reporter: '读者二' },
      ],
    });
    expect(reported.list[0].since).toBe(reported.list[0].items[0].createdAt);
    expect((await queue('flagged')).total).toBe(0);
    expect((await queue()).total).toBe(2);
    const bad = await ctx.app.call('GET', '/api/admin/works/moderation?kind=mine', { token: ctx.admin });
    expect(bad.body.msg).toContain('筛选条件不正确');
  });

  it('通过 keeps a reported work public; a new report later brings it back', async () => {
    const [first] = works;
    expect((await decide(first!, 'approve')).body).toMatchObject({ code: 0, msg: DECISION_MESSAGES.approved });
    expect((await queue()).list.map((entry: any) => entry.work.id)).not.toContain(first);
    expect((await ctx.app.call('GET', `/api/works/public/detail?id=${first}`)).body.code).toBe(0);
    // The same users cannot report it again; another one can.
    expect((await report(readers[0], { id: first, reason: 'porn' })).body.msg).toBe(REPORT_MESSAGES.again);
    expect((await report(readers[2], { id: first, reason: 'minors' })).body.code).toBe(0);
    const back = (await queue()).list.find((entry: any) => entry.work.id === first);
    expect(back.items).toEqual([expect.objectContaining({ label: '危害未成年人', reporter: '读者三' })]);
  });

  it('下架 takes a reported work off 灵感广场 for good; two admins deciding at once make one decision', async () => {
    const taken = works[2]!;
    await report(readers[0], { id: taken, reason: 'violence' });
    const secondAdmin = await registerUser(ctx.app, { nickname: '管理员丙' });
    await ctx.app.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', secondAdmin.userId).execute();
    const login = await ctx.app.call('POST', '/api/auth/account', {
      body: { account: secondAdmin.account, password: secondAdmin.password },
    });
    const [a, b] = await Promise.all([decide(taken, 'remove'), decide(taken, 'approve', login.body.data.token)]);
    const answers = [a.body, b.body];
    expect([a.status, b.status], JSON.stringify(answers)).toEqual([200, 200]);
    expect(answers.filter((body) => body.code === 0)).toHaveLength(1);
    expect(answers.filter((body) => body.msg === DECISION_MESSAGES.nothingOpen)).toHaveLength(1);
    const decisions = await ctx.app.db
      .selectFrom('moderation_decisions')
      .selectAll()
      .where('work_id', '=', taken)
      .execute();
    expect(decisions).toHaveLength(1);

    if (decisions[0]!.decision === 'approve') {
      // The other admin was first; take it down now.
      await report(readers[1], { id: taken, reason: 'violence' });
      expect((await decide(taken, 'remove')).body.msg).toBe(DECISION_MESSAGES.removed);
    }
    const gone = await ctx.app.call('GET', `/api/works/public/detail?id=${taken}`);
    expect(gone.status).toBe(404);
    const list = (await ctx.app.call('GET', '/api/works/public?pageSize=50')).body.data.list;
    expect(list.map((work: any) => work.id)).not.toContain(taken);
    // The author keeps it but cannot publish it again.
    const publish = (makePublic: boolean) =>
      ctx.app.call('POST', '/api/works/publish', {
        token: ctx.author.token,
        body: { id: taken, public: makePublic, hidePrompt: false },
      });
    expect((await publish(false)).body.code).toBe(0);
    expect((await publish(true)).body).toMatchObject({ code: -1, msg: MODERATION_MESSAGES.removed });
    // The older 作品审核 list shows it hidden.
    const hidden = await ctx.app.call('GET', '/api/admin/works/review?status=hidden', { token: ctx.admin });
    expect(hidden.body.code).toBe(0);
  });

  it('keeps the decision history, newest first, after the author deletes the work', async () => {
    const doomed = works[4]!;
    await report(readers[1], { id: doomed, reason: 'spam' });
    await report(readers[2], { id: doomed, reason: 'spam' });
    expect((await decide(doomed, 'approve')).body.code).toBe(0);
    const del = await ctx.app.call('DELETE', '/api/works', { token: ctx.author.token, body: { ids: [doomed] } });
    expect(del.body.code).toBe(0);
    expect((await decide(doomed, 'remove')).body).toMatchObject({ code: 404 });

    const history = (
      await ctx.app.call('GET', '/api/admin/works/moderation/history?pageSize=100', { token: ctx.admin })
    ).body.data;
    expect(history.list[0]).toMatchObject({
      workId: doomed,
      work: null,
      decision: 'approve',
      reasons: [{ kind: 'report', label: '垃圾广告', count: 2 }],
    });
    expect(history.total).toBeGreaterThanOrEqual(3);
    const times = history.list.map((entry: any) => entry.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect((await ctx.app.call('GET', '/api/admin/works/moderation/history', { token: ctx.author.token })).status).toBe(
      403,
    );
    // Its open reasons went with it.
    expect(await openReports(doomed)).toEqual([]);
  });
});
