import { beforeAll, expect, it } from 'vitest';
import { flushAudit } from '../audit/audit-helpers.js';
import { describeServer } from '../helpers/suite.js';
import { loginAdmin, SCALE_OUT } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { readZip } from '../helpers/zip.js';
import { seedWorks } from './work-fixtures.js';

describeServer('works: my gallery, the public gallery, downloads and review', () => {
  const ctx = useTestApp({ users: { alice: { nickname: '爱丽丝' }, bob: { nickname: '小鲍' } } });
  let aliceWorks: string[];
  let bobWorks: string[];
  let inkTemplateId: string;
  beforeAll(async () => {
    const ink = await ctx.app.db
      .selectFrom('templates')
      .select('id')
      .where('name', '=', '水墨山水')
      .executeTakeFirstOrThrow();
    inkTemplateId = ink.id;
    // 25 works over three days: 10 with the ink template (prompts about mountains), 15 free creations.
    aliceWorks = await seedWorks(
      ctx.app,
      ctx.alice.userId,
      Array.from({ length: 25 }, (_, i) => ({
        templateId: i < 10 ? ink.id : null,
        templateName: i < 10 ? '水墨山水' : '自由创作',
        prompt: i < 10 ? `mountain ${i}` : `city ${i}`,
        createdAt: new Date(Date.UTC(2026, 10, 1 + Math.floor(i / 10), 8, i)).toISOString(),
      })),
    );
    bobWorks = await seedWorks(ctx.app, ctx.bob.userId, [{ prompt: 'bob cat' }, { prompt: 'bob dog' }]);
  });

  const get = (url: string, token?: string) => ctx.app.call('GET', url, token ? { token } : {});

  it('pages my works newest first, with filters and page edges', async () => {
    const first = await get('/api/works/profile?current=1&pageSize=10', ctx.alice.token);
    expect(first.body.data).toMatchObject({ current: 1, pageSize: 10, total: 25 });
    expect(first.body.data.list).toHaveLength(10);
    expect(first.body.data.list[0].id).toBe(aliceWorks[24]);
    expect(first.body.data.list[0]).toMatchObject({
      thumbUrl: expect.stringMatching(new RegExp(`^/api/works/thumb/${aliceWorks[24]}\\?e=\\d+&s=[\\w-]+$`)),
      url: expect.stringMatching(new RegExp(`^/api/works/image/${aliceWorks[24]}\\?e=\\d+&s=[\\w-]+$`)),
      width: 64,
      height: 48,
      templateName: '自由创作',
      public: false,
    });
    expect((await get('/api/works/profile?current=3&pageSize=10', ctx.alice.token)).body.data.list).toHaveLength(5);
    const beyond = await get('/api/works/profile?current=9&pageSize=10', ctx.alice.token);
    expect(beyond.body.data).toMatchObject({ list: [], total: 25, current: 9 });
    const tooBig = await get('/api/works/profile?pageSize=101', ctx.alice.token);
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.msg).toContain('每页条数不能超过 100');
    expect((await get('/api/works/profile?current=0', ctx.alice.token)).status).toBe(400);

    const byTemplate = await get(`/api/works/profile?templateId=${inkTemplateId}&pageSize=100`, ctx.alice.token);
    expect(byTemplate.body.data.total).toBe(10);
    // 自由创作: the works made without a template.
    const free = await get('/api/works/profile?templateId=free&pageSize=100', ctx.alice.token);
    expect(free.body.data.total).toBe(15);
    expect(free.body.data.list.map((w: any) => w.id).sort()).toEqual(aliceWorks.slice(10).sort());
    const byDay = await get('/api/works/profile?dateFrom=2026-11-02&dateTo=2026-11-02&pageSize=100', ctx.alice.token);
    expect(byDay.body.data.total).toBe(10);
    // The works were made at 08:xx UTC: 16:xx the same day in China, but 22:xx the evening before in Honolulu.
    const china = await get('/api/works/profile?dateFrom=2026-11-02&dateTo=2026-11-02&tzOffset=-480', ctx.alice.token);
    expect(china.body.data.total).toBe(10);
    const honolulu = await get(
      '/api/works/profile?dateFrom=2026-11-01&dateTo=2026-11-01&tzOffset=600&pageSize=100',
      ctx.alice.token,
    );
    expect(honolulu.body.data.list.map((w: any) => w.id).sort()).toEqual(aliceWorks.slice(10, 20).sort());
    const byKeyword = await get(
      `/api/works/profile?keyword=${encodeURIComponent('city 2')}&pageSize=100`,
      ctx.alice.token,
    );
    expect(byKeyword.body.data.list.map((w: any) => w.id).sort()).toEqual(aliceWorks.slice(20, 25).sort());
    expect((await get('/api/works/profile?dateFrom=11-02', ctx.alice.token)).body.msg).toContain(
      '日期格式应为 YYYY-MM-DD',
    );

    const bobs = await get('/api/works/profile', ctx.bob.token);
    expect(bobs.body.data.total).toBe(2);
    expect((await get('/api/works/profile')).status).toBe(401);
  });

  it('shows the full record of my own work only', async () => {
    const detail = await get(`/api/works/profile/detail?id=${aliceWorks[3]}`, ctx.alice.token);
    expect(detail.body.data).toMatchObject({
      id: aliceWorks[3],
      prompt: 'mountain 3',
      negativePrompt: 'blurry',
      promptGroup: [{ groupName: 'mountain 3' }],
      parameters: { steps: 20 },
      seed: 3,
      templateId: inkTemplateId,
    });
    const foreign = await get(`/api/works/profile/detail?id=${aliceWorks[3]}`, ctx.bob.token);
    expect(foreign.body).toMatchObject({ code: 404, msg: '作品不存在' });
  });

  it('publishes to the omnibus readable without login, hides prompts on request, and withdraws', async () => {
    const publish = (token: string, body: object) => ctx.app.call('POST', '/api/works/publish', { token, body });
    expect((await publish(ctx.alice.token, { id: aliceWorks[1], public: true })).body).toMatchObject({
      code: 0,
      msg: '已发布到灵感广场',
      data: { public: true },
    });
    await publish(ctx.alice.token, { id: aliceWorks[2], public: true });
    // On a published work, 隐藏提示词 is a setting of its own.
    expect((await publish(ctx.alice.token, { id: aliceWorks[2], public: true, hidePrompt: true })).body).toMatchObject({
      code: 0,
      msg: '设置成功',
    });
    expect((await publish(ctx.bob.token, { id: aliceWorks[3], public: true })).body.code).toBe(404);

    const open = await get('/api/works/public/list');
    expect(open.body.data).toMatchObject({ current: 1, pageSize: 10, total: 2 });
    expect(open.body.data.list[0]).toMatchObject({ author: { nickname: '爱丽丝' }, templateName: '水墨山水' });
    const shown = await get(`/api/works/public/detail?id=${aliceWorks[1]}`);
    expect(shown.body.data).toMatchObject({ prompt: 'mountain 1', hidePrompt: false, views: 1 });
    const hidden = await get(`/api/works/public/detail?id=${aliceWorks[2]}`);
    expect(hidden.body.data).toMatchObject({ prompt: null, promptGroup: null, parameters: null, hidePrompt: true });
    expect((await get(`/api/works/public/detail?id=${aliceWorks[5]}`)).body.code).toBe(404);

    // 热门 orders by views: two more views put work 2 first.
    await get(`/api/works/public/detail?id=${aliceWorks[2]}`);
    await get(`/api/works/public/detail?id=${aliceWorks[2]}`);
    const hot = await get('/api/works/public?order=hot', ctx.bob.token);
    expect(hot.body.data.list.map((w: any) => w.id)).toEqual([aliceWorks[2], aliceWorks[1]]);

    const category = await ctx.app.db
      .selectFrom('task_nodes')
      .innerJoin('templates', 'templates.task_id', 'task_nodes.id')
      .select('task_nodes.parent_id')
      .where('templates.id', '=', inkTemplateId)
      .executeTakeFirstOrThrow();
    expect((await get(`/api/works/public?categoryId=${category.parent_id}`)).body.data.total).toBe(2);
    const related = await get(`/api/task/template/related/work?templateId=${inkTemplateId}`, ctx.bob.token);
    expect(related.body.data.total).toBe(2);

    await publish(ctx.alice.token, { id: aliceWorks[1], public: false });
    expect((await get('/api/works/public/list')).body.data.list.map((w: any) => w.id)).toEqual([aliceWorks[2]]);
  });

  it('publishes a work once when 8 requests race: one success, the others told it is public, one audit entry', async () => {
    const [workId] = await seedWorks(ctx.app, ctx.alice.userId, [{ prompt: 'race' }]);
    // Scale-out: the requests are shared between two API processes.
    const other = SCALE_OUT ? await ctx.app.sibling() : ctx.app;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 === 0 ? ctx.app : other).call('POST', '/api/works/publish', {
          token: ctx.alice.token,
          body: { id: workId, public: true },
        }),
      ),
    );
    if (other !== ctx.app) await other.close();
    for (const answer of answers) expect(answer.body).toMatchObject({ code: 0, data: { id: workId, public: true } });
    const messages = answers.map((answer) => answer.body.msg).sort();
    expect(messages).toEqual([...Array(7).fill('作品已在灵感广场'), '已发布到灵感广场'].sort());
    await flushAudit(ctx.app);
    const entries = await ctx.app.db
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('target_id', '=', workId!)
      .execute();
    expect(entries).toEqual([
      { action: 'work.publish', detail: JSON.stringify({ wasPublic: false, hidePrompt: false }) },
    ]);
    // Asking again changes nothing and says so; withdrawing is one entry more.
    const again = await ctx.app.call('POST', '/api/works/publish', {
      token: ctx.alice.token,
      body: { id: workId, public: true },
    });
    expect(again.body.msg).toBe('作品已在灵感广场');
    await ctx.app.call('POST', '/api/works/publish', { token: ctx.alice.token, body: { id: workId, public: false } });
    await flushAudit(ctx.app);
    const actions = await ctx.app.db
      .selectFrom('audit_log')
      .select('action')
      .where('target_id', '=', workId!)
      .execute();
    expect(actions.map((entry) => entry.action).sort()).toEqual(['work.publish', 'work.unpublish']);
  });

  it('serves private images only through their signed links, public ones openly', async () => {
    const image = (url: string) => ctx.app.app.inject({ method: 'GET', url });
    const [, bobSecond] = bobWorks;
    const detail = (await get(`/api/works/profile/detail?id=${bobSecond}`, ctx.bob.token)).body.data;
    expect((await image(detail.url)).statusCode).toBe(200);
    expect((await image(detail.thumbUrl)).headers['content-type']).toBe('image/webp');
    const bare = await image(`/api/works/image/${bobSecond}`);
    expect(bare.statusCode).toBe(403);
    expect(bare.json()).toMatchObject({ code: -1, msg: '图片链接已失效，请刷新页面' });
    // A signature is for one path only, and cannot be edited.
    const query = detail.url.slice(detail.url.indexOf('?'));
    expect((await image(`/api/works/image/${bobWorks[0]}${query}`)).statusCode).toBe(403);
    const tampered = detail.url.replace(/s=(.)/, (_: string, c: string) => `s=${c === 'A' ? 'B' : 'A'}`);
    expect((await image(tampered)).statusCode).toBe(403);

    await ctx.app.call('POST', '/api/works/publish', { token: ctx.bob.token, body: { id: bobSecond, public: true } });
    const listed = (await get('/api/works/public/list?pageSize=50')).body.data.list.find(
      (w: any) => w.id === bobSecond,
    );
    expect(listed.url).toBe(`/api/works/image/${bobSecond}`);
    expect((await image(listed.url)).statusCode).toBe(200);
    await ctx.app.call('POST', '/api/works/publish', { token: ctx.bob.token, body: { id: bobSecond, public: false } });
    expect((await image(listed.url)).statusCode).toBe(403);
  });

  it('lets admins hide a published work from the omnibus', async () => {
    const admin = await loginAdmin(ctx.app);
    const review = await get('/api/admin/works/review', admin);
    expect(review.body.data.list.map((w: any) => w.id)).toContain(aliceWorks[2]);
    expect((await get('/api/admin/works/review', ctx.alice.token)).status).toBe(403);
    const hide = await ctx.app.call('POST', '/api/admin/works/hide', {
      token: admin,
      body: { id: aliceWorks[2], hidden: true },
    });
    expect(hide.body).toMatchObject({ code: 0, msg: '已隐藏' });
    expect((await get('/api/works/public/list')).body.data.total).toBe(0);
    expect((await get(`/api/works/profile/detail?id=${aliceWorks[2]}`, ctx.alice.token)).body.code).toBe(0);
    const hiddenOnly = await get('/api/admin/works/review?status=hidden', admin);
    expect(hiddenOnly.body.data.list.map((w: any) => w.id)).toEqual([aliceWorks[2]]);
    await ctx.app.call('POST', '/api/admin/works/hide', { token: admin, body: { id: aliceWorks[2], hidden: false } });
    expect((await get('/api/works/public/list')).body.data.total).toBe(1);
  });

  it('stops serving a work at once when it is withdrawn or hidden: a minute of public cache, old signed links refused', async () => {
    const admin = await loginAdmin(ctx.app);
    const [workId] = await seedWorks(ctx.app, ctx.alice.userId, [{ prompt: 'soon hidden' }]);
    const image = (url: string) => ctx.app.app.inject({ method: 'GET', url });
    const owned = async () => (await get(`/api/works/profile/detail?id=${workId}`, ctx.alice.token)).body.data;
    const before = await owned();
    await ctx.app.call('POST', '/api/works/publish', { token: ctx.alice.token, body: { id: workId, public: true } });
    const plain = [`/api/works/image/${workId}`, `/api/works/thumb/${workId}`];
    for (const url of plain) {
      const open = await image(url);
      expect(open.statusCode).toBe(200);
      expect(open.headers['cache-control']).toBe('public, max-age=60');
    }
    for (const url of [before.url, before.thumbUrl]) {
      const signed = await image(url);
      expect(signed.statusCode).toBe(200);
      expect(signed.headers['cache-control']).toBe('private, max-age=3600');
    }

    // Hidden by an admin: neither the plain link nor a link signed before opens it, for anyone.
    await ctx.app.call('POST', '/api/admin/works/hide', { token: admin, body: { id: workId, hidden: true } });
    for (const url of [...plain, before.url, before.thumbUrl]) {
      const refused = await image(url);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json()).toMatchObject({ code: -1, msg: '图片链接已失效，请刷新页面' });
    }
    // The author's and the admin's lists hand out links that open it.
    const now = await owned();
    const [mine] = (await get('/api/works/profile?pageSize=50', ctx.alice.token)).body.data.list.filter(
      (w: any) => w.id === workId,
    );
    const [reviewed] = (await get('/api/admin/works/review?status=hidden&pageSize=50', admin)).body.data.list.filter(
      (w: any) => w.id === workId,
    );
    for (const url of [now.url, now.thumbUrl, mine.url, reviewed.url, reviewed.thumbUrl]) {
      expect((await image(url)).statusCode, url).toBe(200);
    }
    await ctx.app.call('POST', '/api/admin/works/hide', { token: admin, body: { id: workId, hidden: false } });
    expect((await image(plain[0]!)).statusCode).toBe(200);

    // Withdrawn by its author: the plain link stops at once; the author's own signed link still opens it.
    await ctx.app.call('POST', '/api/works/publish', { token: ctx.alice.token, body: { id: workId, public: false } });
    for (const url of plain) expect((await image(url)).statusCode).toBe(403);
    expect((await image((await owned()).url)).statusCode).toBe(200);
  });

  it('streams a zip of 200 originals and refuses other users’ works and oversized requests', async () => {
    const many = await seedWorks(
      ctx.app,
      ctx.alice.userId,
      Array.from({ length: 175 }, (_, i) => ({ prompt: `batch ${i}` })),
    );
    const ids = [...aliceWorks, ...many];
    expect(ids).toHaveLength(200);
    const res = await ctx.app.app.inject({
      method: 'GET',
      url: `/api/files/downloadZip?ids=${ids.join(',')}`,
      headers: { authorization: `Bearer ${ctx.alice.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="huafang-works-.*\.zip"/);
    const entries = await readZip(res.rawPayload);
    expect(entries.size).toBe(200);
    // Files are read ahead of the one being sent: the entries still come in the order asked.
    expect([...entries.keys()].every((name, i) => name.endsWith(`_${ids[i]}.png`))).toBe(true);
    const signed = (await get(`/api/works/profile/detail?id=${ids[7]}`, ctx.alice.token)).body.data.url;
    const original = await ctx.app.app.inject({ method: 'GET', url: signed });
    const entry = [...entries].find(([name]) => name.endsWith(`_${ids[7]}.png`));
    expect(entry?.[0]).toMatch(/^2026-11-01_水墨山水_/);
    expect(entry?.[1].equals(original.rawPayload)).toBe(true);

    const tooMany = await get(`/api/files/downloadZip?ids=${[...ids, bobWorks[0]].join(',')}`, ctx.alice.token);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.msg).toContain('一次最多打包下载 200 个作品');
    const foreign = await get(`/api/files/downloadZip?ids=${aliceWorks[0]},${bobWorks[0]}`, ctx.alice.token);
    expect(foreign.body).toMatchObject({ code: 404, msg: '作品不存在或已删除' });
    expect((await get(`/api/files/downloadZip?ids=${aliceWorks[0]}`)).status).toBe(401);
    // Seeded works have no marked copy yet: this first zip paints 200 of them, slow on a busy 2-core machine.
  }, 90_000);

  it('deletes only my own works, files included, and nothing when any id is not mine', async () => {
    const del = (token: string, ids: string[]) => ctx.app.call('DELETE', '/api/works', { token, body: { ids } });
    const mixed = await del(ctx.alice.token, [aliceWorks[0]!, bobWorks[0]!]);
    expect(mixed.body).toMatchObject({ code: 404, msg: '作品不存在或已删除' });
    expect((await get(`/api/works/profile/detail?id=${aliceWorks[0]}`, ctx.alice.token)).body.code).toBe(0);
    expect((await del(ctx.bob.token, [aliceWorks[0]!])).body.code).toBe(404);

    const ok = await del(ctx.alice.token, [aliceWorks[0]!, aliceWorks[1]!]);
    expect(ok.body).toMatchObject({ code: 0, msg: '删除成功' });
    expect((await ctx.app.app.inject({ method: 'GET', url: `/api/works/image/${aliceWorks[0]}` })).statusCode).toBe(
      404,
    );
    expect((await ctx.app.app.inject({ method: 'GET', url: `/api/works/thumb/${aliceWorks[1]}` })).statusCode).toBe(
      404,
    );
    expect((await del(ctx.alice.token, [])).status).toBe(400);
    expect((await get('/api/works/profile?pageSize=1', ctx.bob.token)).body.data.total).toBe(2);
  });
});
