import { beforeAll, expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { validStep } from '../helpers/template-steps.js';
import { useTestApp } from '../helpers/use-test-app.js';

describeServer('featured templates: 设为精选 by an admin, listed publicly on the home page', () => {
  const ctx = useTestApp({ admin: true, users: ['user'] });
  let taskId: string;
  let hiddenTaskId: string;
  beforeAll(async () => {
    const category = await ctx.app.call('POST', '/api/task', {
      token: ctx.admin,
      body: { name: '精选测试', published: true },
    });
    const task = await ctx.app.call('POST', '/api/task', {
      token: ctx.admin,
      body: { parentId: category.body.data.id, name: '精选任务', published: true },
    });
    taskId = task.body.data.id;
    const hidden = await ctx.app.call('POST', '/api/task', {
      token: ctx.admin,
      body: { parentId: category.body.data.id, name: '未发布任务', published: false },
    });
    hiddenTaskId = hidden.body.data.id;
  });

  const publish = async (name: string, extra: object = {}, kind: 'publish' | 'draft' = 'publish') => {
    const saved = await ctx.app.call('POST', `/api/task/template/save/${kind}`, {
      token: ctx.admin,
      body: {
        taskId,
        name,
        description: `${name}的描述`,
        cover: `/covers/${name}.png`,
        taskStepList: [validStep()],
        ...extra,
      },
    });
    expect(saved.body.code).toBe(0);
    return saved.body.data.templateId as string;
  };
  const feature = (templateId: string, featured: boolean, featuredSort = 0, token = ctx.admin) =>
    ctx.app.call('POST', '/api/task/template/featured', { token, body: { templateId, featured, featuredSort } });
  const featuredList = async () => {
    const answer = await ctx.app.call('GET', '/api/task/template/featured');
    expect(answer.status).toBe(200);
    expect(answer.body.code).toBe(0);
    return answer.body.data as {
      templateId: string;
      taskId: string;
      name: string;
      cover: string | null;
      description: string;
    }[];
  };

  it('shows nothing, to visitors without a login too, while no template is featured', async () => {
    await publish('最新模板');
    expect(await featuredList()).toEqual([]);
  });

  it('lists only the featured templates users can open, in the admin order', async () => {
    const first = await publish('精选甲');
    const second = await publish('精选乙');
    const draft = await publish('只是草稿', {}, 'draft');
    const privateOne = await publish('私有模板', { visibility: 'private' });
    expect((await feature(second, true, 1)).body).toMatchObject({ code: 0, msg: '已设为精选' });
    expect((await feature(first, true, 2)).body.code).toBe(0);
    expect((await feature(draft, true, 0)).body.code).toBe(0);
    expect((await feature(privateOne, true, 0)).body.code).toBe(0);

    expect(await featuredList()).toEqual([
      { templateId: second, taskId, name: '精选乙', cover: '/covers/精选乙.png', description: '精选乙的描述' },
      { templateId: first, taskId, name: '精选甲', cover: '/covers/精选甲.png', description: '精选甲的描述' },
    ]);
    const detail = await ctx.app.call('GET', `/api/task/template/detail/${second}`, { token: ctx.admin });
    expect(detail.body.data).toMatchObject({ featured: true, featuredSort: 1 });

    // A template moved into an unpublished task leaves the list.
    await ctx.app.call('POST', '/api/task/template/move', {
      token: ctx.admin,
      body: { templateId: second, taskId: hiddenTaskId },
    });
    expect((await featuredList()).map((t) => t.name)).toEqual(['精选甲']);

    expect((await feature(first, false)).body).toMatchObject({ code: 0, msg: '已取消精选' });
    // Nothing featured is left open to users: the list is empty, newly published templates do not fill it.
    expect(await featuredList()).toEqual([]);
  });

  it('refuses users, and templates that are not official', async () => {
    const id = await publish('用户想精选');
    expect((await feature(id, true, 0, ctx.user.token)).status).toBe(403);
    const copy = await ctx.app.call('POST', '/api/task/copy_to_mine', { token: ctx.user.token, body: { taskId } });
    expect(copy.body.code).toBe(0);
    const mine = (await ctx.app.call('GET', '/api/task/tree/mine', { token: ctx.user.token })).body.data;
    const ownTemplate = mine.flatMap((c: any) => c.children ?? []).flatMap((t: any) => t.children ?? [])[0];
    expect(ownTemplate).toBeDefined();
    const answer = await feature(ownTemplate.id, true);
    expect(answer.body).toMatchObject({ code: -1, msg: '只有官方模板可以设为精选' });
    const missing = await feature('no-such-template', true);
    expect(missing.status).toBe(404);
    const bad = await ctx.app.call('POST', '/api/task/template/featured', {
      token: ctx.admin,
      body: { templateId: id, featured: true, featuredSort: -1 },
    });
    expect(bad.body).toMatchObject({ code: -1, msg: '精选排序不能为负数' });
  });
});
