import { beforeAll, expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';

describeServer('tasks: a copy in 我的任务 belongs to its owner', () => {
  const ctx = useTestApp({ users: ['owner', 'other'] });
  let copyId: string;
  beforeAll(async () => {
    const tree = await ctx.app.call('GET', '/api/task/tree', { token: ctx.owner.token });
    const source = (tree.body.data as any[]).flatMap((c) => c.children).find((t: any) => t.name === '头像生成');
    const copy = await ctx.app.call('POST', '/api/task/copy_to_mine', {
      token: ctx.owner.token,
      body: { taskId: source.id },
    });
    expect(copy.body.code).toBe(0);
    copyId = copy.body.data.id;
  });

  const templatesOf = async (token: string) =>
    (await ctx.app.call('GET', `/api/task/template/list?taskId=${copyId}`, { token })).body.data[0]
      .visTemplateList as any[];

  it('lets the owner rename and describe the copy, and no one else', async () => {
    const edited = await ctx.app.call('PUT', `/api/task/${copyId}`, {
      token: ctx.owner.token,
      body: { name: '我的头像', description: '自己用' },
    });
    expect(edited.body).toMatchObject({ code: 0, data: { name: '我的头像', description: '自己用' } });
    const foreign = await ctx.app.call('PUT', `/api/task/${copyId}`, {
      token: ctx.other.token,
      body: { name: '别人的' },
    });
    expect(foreign.status).toBe(404);
  });

  it('lets the owner rename and delete the copy’s templates', async () => {
    const [first, second] = await templatesOf(ctx.owner.token);
    const renamed = await ctx.app.call('POST', '/api/task/template/rename', {
      token: ctx.owner.token,
      body: { templateId: first.templateId, name: '我的二次元' },
    });
    expect(renamed.body, JSON.stringify(renamed.body)).toMatchObject({ code: 0 });
    const removed = await ctx.app.call('DELETE', `/api/task/template/${second.templateId}`, { token: ctx.owner.token });
    expect(removed.body).toMatchObject({ code: 0 });
    expect((await templatesOf(ctx.owner.token)).map((t) => t.name)).toEqual(['我的二次元']);
  });

  it('lets the owner delete the copy', async () => {
    expect((await ctx.app.call('DELETE', `/api/task/${copyId}`, { token: ctx.owner.token })).body.code).toBe(0);
    const mine = await ctx.app.call('GET', '/api/task/tree/mine', { token: ctx.owner.token });
    expect(mine.body.data[0].children).toEqual([]);
  });
});
