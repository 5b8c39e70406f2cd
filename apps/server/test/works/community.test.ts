import type { Notice, PublicWorkItem } from '@huafang/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { hotScore } from '../../src/features/works/hot-score.js';
import { COVER_MESSAGES, REACTION_MESSAGES } from '../../src/features/works/work.service.js';
import { auditPage } from '../audit/audit-helpers.js';
import { describeServer } from '../helpers/suite.js';
import { validStep } from '../helpers/template-steps.js';
import { registerUser, type TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { seedWorks } from './work-fixtures.js';

describeServer('灵感广场 as a community: 点赞, 收藏, 我的收藏, 热门, 举报 → 通知, covers from sample works', () => {
  const ctx = useTestApp({ admin: true, users: { author: { nickname: '作者甲' }, reader: { nickname: '读者甲' } } });

  const like = (user: TestUser | undefined, id: string, on = true) =>
    ctx.app.call('POST', '/api/works/like', { ...(user ? { token: user.token } : {}), body: { id, like: on } });
  const favorite = (user: TestUser, id: string, on = true) =>
    ctx.app.call('POST', '/api/works/favorite', { token: user.token, body: { id, favorite: on } });
  const publicList = async (query: string, token?: string) => {
    const res = await ctx.app.call('GET', `/api/works/public?${query}`, token ? { token } : {});
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data as { list: PublicWorkItem[]; total: number };
  };
  const cardOf = async (id: string, token?: string) =>
    (await publicList('pageSize=50', token)).list.find((work) => work.id === id);
  /** An image route answers bytes, not the envelope. */
  const imageStatus = async (url: string) => (await ctx.app.app.inject({ method: 'GET', url })).statusCode;
  const notices = async (user: TestUser) => {
    const res = await ctx.app.call('GET', '/api/notices', { token: user.token });
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data as { list: Notice[]; total: number; unread: number };
  };

  describe('点赞 and 收藏', () => {
    let works: string[];
    beforeAll(async () => {
      works = await seedWorks(ctx.app, ctx.author.userId, [
        { prompt: 'liked', public: true },
        { prompt: 'favourited', public: true },
        { prompt: 'private' },
        { prompt: 'later hidden', public: true },
      ]);
    });

    it('asks a guest to log in and refuses works not on 灵感广场', async () => {
      expect((await like(undefined, works[0]!)).status).toBe(401);
      for (const id of [works[2]!, 'no-such-work']) {
        const res = await like(ctx.reader, id);
        expect(res.body).toMatchObject({ code: 404, msg: REACTION_MESSAGES.gone });
      }
    });

    it('counts one like per user, shows it on the card and the detail, and takes it back', async () => {
      const [id] = works as [string];
      const liked = await like(ctx.reader, id);
      expect(liked.body).toMatchObject({
        code: 0,
        msg: '已点赞',
        data: { id, likes: 1, liked: true, favorites: 0, favorited: false },
      });
      expect((await like(ctx.reader, id)).body.data).toMatchObject({ likes: 1, liked: true });
      expect(await cardOf(id, ctx.reader.token)).toMatchObject({ likes: 1, liked: true });
      // A guest and another user see the count, not the reader's like.
      expect(await cardOf(id)).toMatchObject({ likes: 1, liked: false });
      expect(await cardOf(id, ctx.author.token)).toMatchObject({ likes: 1, liked: false });
      const detail = await ctx.app.call('GET', `/api/works/public/detail?id=${id}`, { token: ctx.reader.token });
      expect(detail.body.data).toMatchObject({ likes: 1, liked: true });

      const undone = await like(ctx.reader, id, false);
      expect(undone.body).toMatchObject({ code: 0, msg: '已取消点赞', data: { likes: 0, liked: false } });
      // Taking back twice never goes below zero.
      expect((await like(ctx.reader, id, false)).body.data).toMatchObject({ likes: 0, liked: false });
    });

    it('keeps one like per user when the same like arrives many times at once, and counts every user', async () => {
      const [id] = works as [string];
      const answers = await Promise.all(Array.from({ length: 10 }, () => like(ctx.reader, id)));
      expect(answers.every((res) => res.body.code === 0)).toBe(true);
      expect((await cardOf(id))?.likes).toBe(1);
      const others = await Promise.all(
        ['一', '二', '三', '四'].map((n) => registerUser(ctx.app, { nickname: `点赞${n}` })),
      );
      await Promise.all(others.flatMap((user) => [like(user, id), like(user, id)]));
      expect((await cardOf(id))?.likes).toBe(5);
      const undone = await Promise.all(Array.from({ length: 6 }, () => like(ctx.reader, id, false)));
      expect(undone.every((res) => res.body.code === 0)).toBe(true);
      expect((await cardOf(id))?.likes).toBe(4);
      const rows = await ctx.app.db.selectFrom('work_likes').select('user_id').where('work_id', '=', id).execute();
      expect(rows).toHaveLength(4);
    });

    it('keeps 我的收藏: the latest favourite first, paged, only works still on 灵感广场', async () => {
      const [first, second, , hiddenLater] = works as [string, string, string, string];
      const answers = await Promise.all(Array.from({ length: 6 }, () => favorite(ctx.reader, second)));
      expect(answers.every((res) => res.body.msg === '已收藏')).toBe(true);
      expect((await cardOf(second))?.favorites).toBe(1);
      await favorite(ctx.reader, first);
      await favorite(ctx.reader, hiddenLater);

      const page = async (query = '') =>
        (await ctx.app.call('GET', `/api/works/favorites?${query}`, { token: ctx.reader.token })).body.data as {
          list: PublicWorkItem[];
          total: number;
        };
      expect((await page()).list.map((work) => work.id)).toEqual([hiddenLater, first, second]);
      expect((await page()).list[0]).toMatchObject({ favorited: true, author: { nickname: '作者甲' } });
      const second2 = await page('current=2&pageSize=2');
      expect(second2).toMatchObject({ total: 3 });
      expect(second2.list.map((work) => work.id)).toEqual([second]);

      // Hidden by an admin: it leaves 我的收藏; the reader may still take the favourite back.
      const hid = await ctx.app.call('POST', '/api/admin/works/hide', {
        token: ctx.admin,
        body: { id: hiddenLater, hidden: true },
      });
      expect(hid.body.code).toBe(0);
      expect((await page()).list.map((work) => work.id)).toEqual([first, second]);
      expect((await favorite(ctx.reader, hiddenLater, false)).body).toMatchObject({
        code: 0,
        msg: '已取消收藏',
        data: { favorites: 0, favorited: false },
      });
      // Another user's favourites are theirs.
      const mine = await ctx.app.call('GET', '/api/works/favorites', { token: ctx.author.token });
      expect(mine.body.data).toMatchObject({ list: [], total: 0 });
      expect((await ctx.app.call('GET', '/api/works/favorites')).status).toBe(401);
    });
  });

  describe('热门', () => {
    it('orders by engagement with age decay: a liked work rises above newer ones, a much older one does not', async () => {
      const at = (hours: number) => new Date(Date.UTC(2026, 10, 20) + hours * 3_600_000).toISOString();
      const [old, liked, fresh] = await seedWorks(ctx.app, ctx.author.userId, [
        { prompt: 'hot: a month old', public: true, publishedAt: at(-30 * 24) },
        { prompt: 'hot: liked', public: true, publishedAt: at(0) },
        { prompt: 'hot: fresh', public: true, publishedAt: at(2) },
      ]);
      const fans = await Promise.all(['a', 'b', 'c'].map((n) => registerUser(ctx.app, { nickname: `粉丝${n}` })));
      for (const fan of fans) {
        await like(fan, liked!);
        await like(fan, old!);
        await favorite(fan, old!);
      }
      const order = (list: PublicWorkItem[]) =>
        list.map((work) => work.id).filter((id) => [old, liked, fresh].includes(id));
      expect(order((await publicList('order=hot&pageSize=50')).list)).toEqual([liked, fresh, old]);
      expect(order((await publicList('order=latest&pageSize=50')).list)).toEqual([fresh, liked, old]);
      // The stored score is the formula's for the counts as they are now.
      const row = await ctx.app.db
        .selectFrom('works')
        .select(['hot_score', 'likes', 'favorites', 'views'])
        .where('id', '=', old!)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ likes: 3, favorites: 3, views: 0 });
      expect(Number(row.hot_score)).toBeCloseTo(
        hotScore({ likes: 3, favorites: 3, views: 0, publishedAt: at(-30 * 24) }),
        6,
      );
      expect((await ctx.app.call('GET', '/api/works/public?order=best')).body.msg).toContain('排序方式不正确');
    });
  });

  describe('举报 → 待审核, 审计日志 and the author’s 通知', () => {
    let reported: string;
    beforeAll(async () => {
      [reported] = (await seedWorks(ctx.app, ctx.author.userId, [
        { prompt: '一只在屋顶上晒太阳的橘猫，高清细节', public: true },
      ])) as [string];
    });

    it('puts a report with its reason into the queue and the audit trail', async () => {
      const res = await ctx.app.call('POST', '/api/works/report', {
        token: ctx.reader.token,
        body: { id: reported, reason: 'spam', detail: '带广告二维码' },
      });
      expect(res.body).toMatchObject({ code: 0, msg: '举报已提交，我们会尽快处理' });
      const queue = await ctx.app.call('GET', '/api/admin/works/moderation?kind=reported', { token: ctx.admin });
      const entry = queue.body.data.list.find((item: any) => item.work.id === reported);
      expect(entry.items).toEqual([
        expect.objectContaining({ kind: 'report', label: '垃圾广告', detail: '带广告二维码', reporter: '读者甲' }),
      ]);
      const trail = await auditPage(ctx.app, ctx.admin, { action: 'work.report' });
      expect(trail.list).toEqual([
        expect.objectContaining({
          action: 'work.report',
          userId: ctx.reader.userId,
          targetType: 'work',
          targetId: reported,
          detail: { authorId: ctx.author.userId, reason: 'spam', label: '垃圾广告', detail: '带广告二维码' },
        }),
      ]);
    });

    it('tells the author when the work is taken down, with the reason; only the author', async () => {
      const before = (await notices(ctx.author)).total;
      const decided = await ctx.app.call('POST', '/api/admin/works/moderation/decide', {
        token: ctx.admin,
        body: { id: reported, decision: 'remove', note: '内部备注' },
      });
      expect(decided.body).toMatchObject({ code: 0, msg: '已下架' });
      const mine = await notices(ctx.author);
      expect(mine.total).toBe(before + 1);
      expect(mine.unread).toBeGreaterThanOrEqual(1);
      const notice = mine.list[0]!;
      expect(notice).toMatchObject({ kind: 'work_removed', title: '作品已被下架', workId: reported, read: false });
      expect(notice.body).toContain('原因：垃圾广告');
      expect(notice.body).toContain('一只在屋顶上晒太阳的橘猫');
      // The admin's note is for admins.
      expect(notice.body).not.toContain('内部备注');
      // The thumbnail is the author's own signed link: it opens though the work is hidden.
      expect(notice.thumbUrl).toMatch(/\?e=/);
      expect(await imageStatus(notice.thumbUrl!)).toBe(200);

      expect((await notices(ctx.reader)).list.some((n) => n.workId === reported)).toBe(false);
      expect((await ctx.app.call('GET', '/api/notices')).status).toBe(401);
    });

    it('tells the author once when admins hide a work at the same time, and marks notices read', async () => {
      const [hidden] = (await seedWorks(ctx.app, ctx.author.userId, [{ prompt: 'hidden twice', public: true }])) as [
        string,
      ];
      const before = (await notices(ctx.author)).total;
      await Promise.all(
        Array.from({ length: 5 }, () =>
          ctx.app.call('POST', '/api/admin/works/hide', { token: ctx.admin, body: { id: hidden, hidden: true } }),
        ),
      );
      const after = await notices(ctx.author);
      expect(after.total).toBe(before + 1);
      expect(after.list[0]).toMatchObject({ kind: 'work_hidden', title: '作品已从灵感广场隐藏', workId: hidden });
      const unread = await ctx.app.call('GET', '/api/notices/unread', { token: ctx.author.token });
      expect(unread.body.data.unread).toBe(after.unread);

      // Another user's ids change nothing; then one read, then all.
      await ctx.app.call('POST', '/api/notices/read', { token: ctx.reader.token, body: { ids: [after.list[0]!.id] } });
      expect((await notices(ctx.author)).unread).toBe(after.unread);
      const one = await ctx.app.call('POST', '/api/notices/read', {
        token: ctx.author.token,
        body: { ids: [after.list[0]!.id] },
      });
      expect(one.body).toMatchObject({ code: 0, msg: '已标记为已读' });
      expect((await notices(ctx.author)).list[0]!.read).toBe(true);
      await ctx.app.call('POST', '/api/notices/read', { token: ctx.author.token, body: {} });
      expect((await notices(ctx.author)).unread).toBe(0);

      // The author deletes the work: the notice stays, without a picture.
      await ctx.app.call('DELETE', '/api/works', { token: ctx.author.token, body: { ids: [hidden] } });
      expect((await notices(ctx.author)).list[0]).toMatchObject({ workId: null, thumbUrl: null });
    });
  });

  describe('template covers from sample works', () => {
    let templateId: string;
    let adminId: string;
    let works: string[];
    beforeAll(async () => {
      const category = await ctx.app.call('POST', '/api/task', {
        token: ctx.admin,
        body: { name: '封面分类', published: true },
      });
      const task = await ctx.app.call('POST', '/api/task', {
        token: ctx.admin,
        body: { parentId: category.body.data.id, name: '封面任务', published: true },
      });
      const saved = await ctx.app.call('POST', '/api/task/template/save/publish', {
        token: ctx.admin,
        body: { taskId: task.body.data.id, name: '封面模板', description: '', taskStepList: [validStep()] },
      });
      templateId = saved.body.data.templateId;
      const admin = await ctx.app.db
        .selectFrom('users')
        .select('id')
        .where('account', '=', 'admin')
        .executeTakeFirstOrThrow();
      adminId = admin.id;
      works = [
        ...(await seedWorks(ctx.app, ctx.author.userId, [
          { templateId, templateName: '封面模板', public: true, prompt: 'public sample' },
          { templateId, templateName: '封面模板', prompt: 'private of a user' },
          { templateName: '别的模板', public: true, prompt: 'another template' },
        ])),
        ...(await seedWorks(ctx.app, adminId, [
          { templateId, templateName: '封面模板', prompt: '生成示例', createdAt: '2026-11-26T00:00:00.000Z' },
        ])),
      ];
    });

    it('offers the template’s public works and the admin’s own, to admins only', async () => {
      const res = await ctx.app.call('GET', `/api/task/template/cover/works?templateId=${templateId}`, {
        token: ctx.admin,
      });
      expect(res.body.code).toBe(0);
      const [publicSample, , , adminSample] = works;
      expect(res.body.data.list.map((work: any) => [work.id, work.own])).toEqual([
        [adminSample, true],
        [publicSample, false],
      ]);
      expect(await imageStatus(res.body.data.list[0].thumbUrl)).toBe(200);
      const asUser = await ctx.app.call('GET', `/api/task/template/cover/works?templateId=${templateId}`, {
        token: ctx.reader.token,
      });
      expect(asUser.status).toBe(403);
    });

    it('copies a chosen work into a cover file that shows once the template is published with it', async () => {
      const [publicSample, privateOfUser, otherTemplate] = works as [string, string, string];
      for (const workId of [privateOfUser, otherTemplate]) {
        const refused = await ctx.app.call('POST', '/api/task/template/cover/from-work', {
          token: ctx.admin,
          body: { templateId, workId },
        });
        expect(refused.body).toMatchObject({ code: -1, msg: COVER_MESSAGES.notCandidate });
      }
      const picked = await ctx.app.call('POST', '/api/task/template/cover/from-work', {
        token: ctx.admin,
        body: { templateId, workId: publicSample },
      });
      expect(picked.body).toMatchObject({ code: 0, msg: COVER_MESSAGES.picked });
      const { fileId } = picked.body.data as { fileId: string };
      const cover = `/api/files/${fileId}`;
      // Not yet in public use: only the admin's signed link opens it.
      expect(await imageStatus(cover)).toBe(403);
      expect(await imageStatus(picked.body.data.url)).toBe(200);

      const detail = await ctx.app.call('GET', `/api/task/template/detail/${templateId}`, { token: ctx.admin });
      const saved = await ctx.app.call('POST', '/api/task/template/save/publish', {
        token: ctx.admin,
        body: {
          templateId,
          taskId: detail.body.data.taskId,
          name: '封面模板',
          description: '',
          cover,
          taskStepList: detail.body.data.taskStepList,
        },
      });
      expect(saved.body.code, saved.body.msg).toBe(0);
      expect(await imageStatus(cover)).toBe(200);
    });
  });
});
