import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { MODERATION_MESSAGES } from '../../src/features/moderation/publication-gate.js';
import { DECISION_MESSAGES } from '../../src/features/moderation/work-moderation.service.js';
import { readBytes } from '../../src/platform/storage/storage.js';
import { startTencentModerationDouble, type TencentModerationDouble } from '../doubles/tencent-moderation-double.js';
import { demoTemplate, generateBody, waitForEnd } from '../generate/generation-helpers.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { seedWorks } from '../works/work-fixtures.js';

const BLOCK_WORD = 'forbidden-scene';
const REVIEW_WORD = 'scan-my-qrcode';

describeServer('content moderation before publication (Tencent TMS/IMS double): flags, fail closed, decisions', () => {
  let double: TencentModerationDouble;
  beforeAll(async () => {
    double = await startTencentModerationDouble(
      { secretId: 'AKIDHuafangModeration', secretKey: 'moderation-secret-for-the-double' },
      { blockWords: [BLOCK_WORD], reviewWords: [REVIEW_WORD] },
    );
  });
  afterAll(() => double.close());
  const ctx = useTestApp({
    config: () => ({ moderation: { kind: 'tencent', ...double.settings, region: 'ap-shanghai', timeoutMs: 1000 } }),
    admin: true,
    users: { author: { nickname: '画师甲' } },
  });
  afterEach(() => double.reset());

  const publish = (id: string, makePublic = true, hidePrompt = false) =>
    ctx.app.call('POST', '/api/works/publish', {
      token: ctx.author.token,
      body: { id, public: makePublic, hidePrompt },
    });
  const workRow = (id: string) =>
    ctx.app.db.selectFrom('works').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const publicIds = async () =>
    (await ctx.app.call('GET', '/api/works/public?pageSize=50')).body.data.list.map((work: { id: string }) => work.id);
  const queue = async (kind = 'all') =>
    (await ctx.app.call('GET', `/api/admin/works/moderation?kind=${kind}`, { token: ctx.admin })).body.data;
  const decide = (id: string, decision: 'approve' | 'remove', note?: string) =>
    ctx.app.call('POST', '/api/admin/works/moderation/decide', { token: ctx.admin, body: { id, decision, note } });
  const callsFor = (workId: string) => double.requests.filter((call) => call.dataId === workId);

  it('checks the original image and the prompts, then publishes a clean work', async () => {
    const [id] = await seedWorks(ctx.app, ctx.author.userId, [{ prompt: 'a quiet lake at dawn' }]);
    const res = await publish(id!);
    expect(res.body).toMatchObject({ code: 0, msg: '已发布到灵感广场', data: { public: true } });
    expect(double.rejections).toEqual([]);
    const calls = callsFor(id!);
    expect(calls.map((call) => call.action).sort()).toEqual(['ImageModeration', 'TextModeration']);
    const stored = await readBytes((await ctx.app.services.storage.read(`works/${id}.png`))!);
    expect(calls.find((call) => call.action === 'ImageModeration')?.image?.equals(stored)).toBe(true);
    expect(calls.find((call) => call.action === 'TextModeration')?.text).toContain('a quiet lake at dawn');
    expect(calls.every((call) => call.region === 'ap-shanghai')).toBe(true);
    expect(await publicIds()).toContain(id);

    // Changing 隐藏提示词 on a public work is not a new publication: no call.
    const before = double.requests.length;
    expect((await publish(id!, true, true)).body).toMatchObject({ code: 0, msg: '设置成功' });
    expect(double.requests).toHaveLength(before);
  });

  it('keeps a blocked work private and puts it in the queue with the reason', async () => {
    const [id] = await seedWorks(ctx.app, ctx.author.userId, [{ prompt: `a ${BLOCK_WORD} in the rain` }]);
    const res = await publish(id!, true, true);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: -1, msg: MODERATION_MESSAGES.block('色情') });
    expect(await workRow(id!)).toMatchObject({ public: 0, publish_pending: 1, hide_prompt: 1, published_at: null });
    const mine = await ctx.app.call('GET', `/api/works/profile/detail?id=${id}`, { token: ctx.author.token });
    expect(mine.body.data).toMatchObject({ public: false, hidePrompt: true, moderation: 'pending' });
    expect(await publicIds()).not.toContain(id);
    const detail = await ctx.app.call('GET', `/api/works/public/detail?id=${id}`);
    expect(detail.status).toBe(404);

    const queued = (await queue('flagged')).list.find((entry: any) => entry.work.id === id);
    expect(queued).toMatchObject({
      work: {
        id,
        public: false,
        publishPending: true,
        authorId: ctx.author.userId,
        author: { nickname: '画师甲' },
        thumbUrl: expect.stringMatching(new RegExp(`^/api/works/thumb/${id}\\?e=\\d+&s=`)),
      },
      items: [{ kind: 'text', verdict: 'block', label: '色情', reporter: null }],
    });
    expect(queued.items[0].detail).toContain(BLOCK_WORD);
    // The admin's signed link opens the private original.
    expect((await ctx.app.app.inject({ method: 'GET', url: queued.work.url })).statusCode).toBe(200);
    expect((await queue('reported')).list.map((entry: any) => entry.work.id)).not.toContain(id);

    // Asking again while it waits does not call the provider again.
    const calls = double.requests.length;
    expect((await publish(id!)).body).toMatchObject({ code: -1, msg: MODERATION_MESSAGES.pending });
    expect(double.requests).toHaveLength(calls);
    expect((await queue()).list.filter((entry: any) => entry.work.id === id)).toHaveLength(1);
  });

  it('holds an image the provider wants reviewed; 通过 publishes it and later publications skip the provider', async () => {
    const [id] = await seedWorks(ctx.app, ctx.author.userId, [{ prompt: 'portrait' }]);
    double.answerNext('ImageModeration', { Suggestion: 'Review', Label: 'Sexy', SubLabel: 'Cleavage' });
    expect((await publish(id!)).body).toMatchObject({ code: -1, msg: MODERATION_MESSAGES.review('性感低俗') });
    const queued = (await queue()).list.find((entry: any) => entry.work.id === id);
    expect(queued.items).toEqual([
      expect.objectContaining({
        kind: 'image',
        verdict: 'review',
        label: '性感低俗',
        detail: expect.stringContaining('Sexy/Cleavage'),
      }),
    ]);

    // Not an admin: refused.
    const byUser = await ctx.app.call('POST', '/api/admin/works/moderation/decide', {
      token: ctx.author.token,
      body: { id, decision: 'approve' },
    });
    expect(byUser.status).toBe(403);

    const approved = await decide(id!, 'approve', '艺术人像，不违规');
    expect(approved.body).toMatchObject({ code: 0, msg: DECISION_MESSAGES.approvedAndPublished });
    expect(await workRow(id!)).toMatchObject({ public: 1, publish_pending: 0, moderation: 'approved' });
    expect(await publicIds()).toContain(id);
    expect((await queue()).list.map((entry: any) => entry.work.id)).not.toContain(id);
    expect((await decide(id!, 'approve')).body).toMatchObject({ code: -1, msg: DECISION_MESSAGES.nothingOpen });

    const history = await ctx.app.call('GET', `/api/admin/works/moderation/history?workId=${id}`, { token: ctx.admin });
    expect(history.body.data).toMatchObject({ total: 1 });
    expect(history.body.data.list[0]).toMatchObject({
      workId: id,
      decision: 'approve',
      admin: expect.any(String),
      note: '艺术人像，不违规',
      reasons: [{ kind: 'image', label: '性感低俗', count: 1 }],
      work: { id, public: true },
    });
    const adminId = (await ctx.app.call('GET', '/api/user/currentUser', { token: ctx.admin })).body.data.userId;
    expect(history.body.data.list[0].adminId).toBe(adminId);

    // Withdrawn and published again: an admin passed it, the provider is not asked.
    const calls = double.requests.length;
    expect((await publish(id!, false)).body.msg).toBe('已取消发布');
    expect((await publish(id!)).body).toMatchObject({ code: 0, msg: '已发布到灵感广场' });
    expect(double.requests).toHaveLength(calls);
  });

  it('下架 keeps a flagged work private for good; 通过 after the author withdrew leaves it private', async () => {
    const [removed, withdrawn] = await seedWorks(ctx.app, ctx.author.userId, [
      { prompt: `${BLOCK_WORD} one` },
      { prompt: `${REVIEW_WORD} two` },
    ]);
    await publish(removed!);
    expect((await decide(removed!, 'remove', '违规')).body).toMatchObject({ code: 0, msg: DECISION_MESSAGES.removed });
    expect(await workRow(removed!)).toMatchObject({ public: 0, hidden: 1, moderation: 'removed', publish_pending: 0 });
    expect((await publish(removed!)).body).toMatchObject({ code: -1, msg: MODERATION_MESSAGES.removed });
    // The author still has it.
    const mine = await ctx.app.call('GET', `/api/works/profile/detail?id=${removed}`, { token: ctx.author.token });
    expect(mine.body.data).toMatchObject({ id: removed, public: false, moderation: 'removed' });

    expect((await publish(withdrawn!)).body).toMatchObject({ code: -1, msg: MODERATION_MESSAGES.review('广告引流') });
    expect((await publish(withdrawn!, false)).body).toMatchObject({ code: 0, msg: '已取消发布' });
    expect(await workRow(withdrawn!)).toMatchObject({ publish_pending: 0 });
    expect((await decide(withdrawn!, 'approve')).body).toMatchObject({ code: 0, msg: DECISION_MESSAGES.approved });
    expect(await workRow(withdrawn!)).toMatchObject({ public: 0, moderation: 'approved' });

    const history = (await ctx.app.call('GET', '/api/admin/works/moderation/history', { token: ctx.admin })).body.data;
    const decisions = history.list.map((entry: any) => [entry.workId, entry.decision]);
    expect(decisions).toEqual(
      expect.arrayContaining([
        [removed, 'remove'],
        [withdrawn, 'approve'],
      ]),
    );
    // Newest first.
    expect(history.list[0]).toMatchObject({
      workId: withdrawn,
      reasons: [{ kind: 'text', label: '广告引流', count: 1 }],
    });
  });

  it('refuses publication when the provider does not answer in time or fails: fail closed, nothing queued', async () => {
    const [slow, broken, down] = await seedWorks(ctx.app, ctx.author.userId, [
      { prompt: 'slow' },
      { prompt: 'broken' },
      { prompt: 'down' },
    ]);
    double.answerNext('ImageModeration', 'hang');
    const started = Date.now();
    expect((await publish(slow!)).body).toMatchObject({ code: -1, msg: MODERATION_MESSAGES.timeout });
    expect(Date.now() - started).toBeLessThan(5000);
    double.answerNext('TextModeration', { error: 'UnauthorizedOperation.Unauthorized' });
    expect((await publish(broken!)).body).toMatchObject({ code: -1, msg: MODERATION_MESSAGES.failed });
    double.answerNext('ImageModeration', 'http-502');
    expect((await publish(down!)).body).toMatchObject({ code: -1, msg: MODERATION_MESSAGES.failed });
    for (const id of [slow, broken, down]) {
      expect(await workRow(id!)).toMatchObject({ public: 0, publish_pending: 0, published_at: null });
    }
    const queued = (await queue()).list.map((entry: any) => entry.work.id);
    for (const id of [slow, broken, down]) expect(queued).not.toContain(id);
    expect(ctx.app.logLines.some((line) => line.includes('"failure":"timeout"'))).toBe(true);

    // Once the provider answers again, the same work goes out.
    expect((await publish(slow!)).body).toMatchObject({ code: 0, msg: '已发布到灵感广场' });
  });

  it('does not check private generation: it paints and keeps the work even while the provider is down', async () => {
    const ink = await demoTemplate(ctx.app, ctx.author.token, '水墨山水');
    const calls = double.requests.length;
    double.answerNext('ImageModeration', 'hang');
    double.answerNext('TextModeration', 'hang');
    const submit = await ctx.app.call('POST', '/api/generate/task', {
      token: ctx.author.token,
      body: generateBody(ink, { width: 256, height: 256, steps: 4 }),
    });
    expect(submit.body.code, submit.body.msg).toBe(0);
    const { final } = await waitForEnd(ctx.app, ctx.author.token, submit.body.data.generateId);
    expect(final.status).toBe('succeeded');
    expect(double.requests).toHaveLength(calls);
    // The owner's signed link serves it: private works are never checked.
    const image = await ctx.app.app.inject({ method: 'GET', url: final.images[0].url });
    expect(image.statusCode).toBe(200);
  });
});
