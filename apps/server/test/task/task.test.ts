import { expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { validStep } from '../helpers/template-steps.js';
import { registerUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

describeServer('tasks: tree, admin writes, moves and copies', () => {
  const ctx = useTestApp({ admin: true, users: ['user'] });

  const tree = async (token: string, suffix = '') =>
    (await ctx.app.call('GET', `/api/task/tree${suffix}`, { token })).body;
  const create = async (body: object) => (await ctx.app.call('POST', '/api/task', { token: ctx.admin, body })).body;

  it('seeds a Chinese demo tree: ≥4 categories, ≥8 tasks, ≥12 published templates', async () => {
    const { data } = await tree(ctx.user.token);
    expect(data.length).toBeGreaterThanOrEqual(4);
    const tasks = data.flatMap((c: any) => c.children);
    const templates = tasks.flatMap((t: any) => t.children);
    expect(tasks.length).toBeGreaterThanOrEqual(8);
    expect(templates.length).toBeGreaterThanOrEqual(12);
    expect(data.map((c: any) => c.name)).toContain('电商设计');
    expect(templates.every((t: any) => t.kind === 'template' && t.status === 'published')).toBe(true);
    expect(tasks[0]).toMatchObject({ kind: 'task', key: tasks[0].id, templateCount: tasks[0].children.length });
  });

  it('keeps the full tree and all writes to admins', async () => {
    const all = await ctx.app.call('GET', '/api/task/tree/all', { token: ctx.user.token });
    expect(all.status).toBe(403);
    expect(
      (await ctx.app.call('POST', '/api/task', { token: ctx.user.token, body: { name: '偷建分类' } })).status,
    ).toBe(403);
    const someTask = (await tree(ctx.user.token)).data[0].children[0];
    const put = await ctx.app.call('PUT', `/api/task/${someTask.id}`, {
      token: ctx.user.token,
      body: { name: '改名' },
    });
    expect(put.status).toBe(403);
    expect((await ctx.app.call('DELETE', `/api/task/${someTask.id}`, { token: ctx.user.token })).status).toBe(403);
    expect(
      (
        await ctx.app.call('POST', '/api/task/move', {
          token: ctx.user.token,
          body: { taskId: someTask.id, parentId: null },
        })
      ).status,
    ).toBe(403);
  });

  it('creates a category and a task; unpublished ones are invisible to users', async () => {
    const category = await create({ name: '测试分类' });
    expect(category).toMatchObject({ code: 0, data: { kind: 'category', published: false } });
    const task = await create({ parentId: category.data.id, name: '测试任务', published: true });
    expect(task.data).toMatchObject({ kind: 'task', parentId: category.data.id });

    expect((await tree(ctx.user.token)).data.some((c: any) => c.id === category.data.id)).toBe(false);
    expect((await ctx.app.call('GET', `/api/task/${category.data.id}`, { token: ctx.user.token })).status).toBe(404);
    const all = await tree(ctx.admin, '/all');
    expect(all.data.find((c: any) => c.id === category.data.id).children[0].name).toBe('测试任务');

    await ctx.app.call('PUT', `/api/task/${category.data.id}`, { token: ctx.admin, body: { published: true } });
    expect((await tree(ctx.user.token)).data.some((c: any) => c.id === category.data.id)).toBe(true);
  });

  it('keeps two levels: tasks only under categories, categories only at the top', async () => {
    const category = await create({ name: '层级分类' });
    const task = await create({ parentId: category.data.id, name: '层级任务' });
    const nested = await create({ parentId: task.data.id, name: '第三层' });
    expect(nested).toMatchObject({ code: -1, msg: '任务只能建在分类下，分类最多两级' });

    const intoTask = await ctx.app.call('POST', '/api/task/move', {
      token: ctx.admin,
      body: { taskId: category.data.id, parentId: task.data.id },
    });
    expect(intoTask.body).toMatchObject({ code: -1, msg: '分类只能位于最顶层，不能移到其他节点下' });
    const toTop = await ctx.app.call('POST', '/api/task/move', {
      token: ctx.admin,
      body: { taskId: task.data.id, parentId: null },
    });
    expect(toTop.body.msg).toBe('任务必须位于某个分类下');
    const underItself = await ctx.app.call('POST', '/api/task/move', {
      token: ctx.admin,
      body: { taskId: task.data.id, parentId: task.data.id },
    });
    expect(underItself.body.msg).toBe('不能把任务移到它自己下面');
    const missing = await ctx.app.call('POST', '/api/task/move', {
      token: ctx.admin,
      body: { taskId: task.data.id, parentId: 'nope' },
    });
    expect(missing.status).toBe(404);
  });

  it('moves a task to another category at a position and renumbers siblings', async () => {
    const from = await create({ name: '来源分类' });
    const to = await create({ name: '目标分类' });
    const moving = await create({ parentId: from.data.id, name: '要移动的任务' });
    await create({ parentId: to.data.id, name: '甲' });
    await create({ parentId: to.data.id, name: '乙' });
    const moved = await ctx.app.call('POST', '/api/task/move', {
      token: ctx.admin,
      body: { taskId: moving.data.id, parentId: to.data.id, sort: 1 },
    });
    expect(moved.body.data).toMatchObject({ parentId: to.data.id, sort: 1 });
    const all = await tree(ctx.admin, '/all');
    const names = all.data.find((c: any) => c.id === to.data.id).children.map((t: any) => t.name);
    expect(names).toEqual(['甲', '要移动的任务', '乙']);
    expect(all.data.find((c: any) => c.id === from.data.id).children).toEqual([]);
  });

  it('copies a task with its templates as unpublished drafts', async () => {
    const category = await create({ name: '复制分类' });
    const task = await create({ parentId: category.data.id, name: '原任务', published: true });
    await ctx.app.call('POST', '/api/task/template/save/publish', {
      token: ctx.admin,
      body: { taskId: task.data.id, name: '原模板', taskStepList: [validStep()] },
    });
    const copy = await ctx.app.call('POST', '/api/task/copy', { token: ctx.admin, body: { taskId: task.data.id } });
    expect(copy.body.data).toMatchObject({ name: '原任务（副本）', published: false, parentId: category.data.id });
    const copied = (await tree(ctx.admin, '/all')).data
      .find((c: any) => c.id === category.data.id)
      .children.find((t: any) => t.id === copy.body.data.id);
    expect(copied.children).toHaveLength(1);
    expect(copied.children[0]).toMatchObject({ name: '原模板', status: 'draft' });
  });

  it('refuses deleting a category that still has tasks; deleting a task removes its templates', async () => {
    const category = await create({ name: '删除分类' });
    const task = await create({ parentId: category.data.id, name: '删除任务' });
    const saved = await ctx.app.call('POST', '/api/task/template/save/draft', {
      token: ctx.admin,
      body: { taskId: task.data.id, name: '将被删除', taskStepList: [validStep()] },
    });
    const refused = await ctx.app.call('DELETE', `/api/task/${category.data.id}`, { token: ctx.admin });
    expect(refused.body).toMatchObject({ code: -1, msg: '分类下还有任务，请先删除或移走这些任务' });
    expect((await ctx.app.call('DELETE', `/api/task/${task.data.id}`, { token: ctx.admin })).body).toMatchObject({
      code: 0,
      msg: '删除成功',
    });
    const gone = await ctx.app.call('GET', `/api/task/template/detail/${saved.body.data.templateId}`, {
      token: ctx.admin,
    });
    expect(gone.status).toBe(404);
    expect((await ctx.app.call('DELETE', `/api/task/${category.data.id}`, { token: ctx.admin })).body.code).toBe(0);
  });

  it('copies a published task into the user’s own space; only its owner sees or edits it', async () => {
    const official = (await tree(ctx.user.token)).data[0].children[0];
    expect(
      (await ctx.app.call('GET', `/api/task/copiable/${official.id}`, { token: ctx.user.token })).body.data,
    ).toEqual({
      copiable: true,
      reason: null,
    });
    const mine = await ctx.app.call('POST', '/api/task/copy_to_mine', {
      token: ctx.user.token,
      body: { taskId: official.id },
    });
    expect(mine.body).toMatchObject({ code: 0, data: { ownerId: ctx.user.userId, name: official.name } });
    const myTree = await tree(ctx.user.token, '/mine');
    expect(myTree.data[0]).toMatchObject({ id: 'mine', name: '我的任务' });
    const copiedTask = myTree.data[0].children.find((t: any) => t.id === mine.body.data.id);
    expect(copiedTask.children.length).toBe(official.children.length);

    // The owner may edit the copy's templates; another user sees nothing of it.
    const templateId = copiedTask.children[0].id;
    const detail = await ctx.app.call('GET', `/api/task/template/detail/${templateId}`, { token: ctx.user.token });
    const save = await ctx.app.call('POST', '/api/task/template/save/draft', {
      token: ctx.user.token,
      body: {
        templateId,
        taskId: copiedTask.id,
        name: '我改过的模板',
        taskStepList: detail.body.data.taskStepList,
      },
    });
    expect(save.body.code).toBe(0);
    const other = await registerUser(ctx.app);
    expect((await ctx.app.call('GET', `/api/task/template/detail/${templateId}`, { token: other.token })).status).toBe(
      404,
    );
    expect((await ctx.app.call('GET', `/api/task/${copiedTask.id}`, { token: other.token })).status).toBe(404);
    expect((await tree(other.token, '/mine')).data[0].children).toEqual([]);
    const steal = await ctx.app.call('POST', '/api/task/template/save/draft', {
      token: other.token,
      body: { templateId, taskId: copiedTask.id, name: '偷改', taskStepList: detail.body.data.taskStepList },
    });
    expect(steal.status).toBe(404);

    const again = await ctx.app.call('GET', `/api/task/copiable/${copiedTask.id}`, { token: ctx.user.token });
    expect(again.body.data).toEqual({ copiable: false, reason: '这已经是你自己的任务' });
  });

  it('tells whether a task (and one of its templates) may be copied, and refuses what may not', async () => {
    const official = (await tree(ctx.user.token)).data[0].children[0];
    const template = official.children[0];
    const withTemplate = await ctx.app.call('GET', `/api/task/copiable/${official.id}/${template.id}`, {
      token: ctx.user.token,
    });
    expect(withTemplate.body.data).toEqual({ copiable: true, reason: null });
    const foreign = await ctx.app.call('GET', `/api/task/copiable/${official.id}/not-its-template`, {
      token: ctx.user.token,
    });
    expect(foreign.body.data).toEqual({ copiable: false, reason: '该模板不属于此任务或尚未发布' });

    const category = await create({ name: '只有管理员可见', published: true });
    const hidden = await create({ parentId: category.data.id, name: '未发布任务' });
    const byAdmin = await ctx.app.call('GET', `/api/task/copiable/${hidden.data.id}`, { token: ctx.admin });
    expect(byAdmin.body.data).toEqual({ copiable: false, reason: '任务尚未发布' });
    const refused = await ctx.app.call('POST', '/api/task/copy_to_mine', {
      token: ctx.admin,
      body: { taskId: hidden.data.id },
    });
    expect(refused.body).toMatchObject({ code: -1, msg: '任务尚未发布' });
    expect(
      (
        await ctx.app.call('POST', '/api/task/copy_to_mine', {
          token: ctx.user.token,
          body: { taskId: hidden.data.id },
        })
      ).status,
    ).toBe(404);

    const copyTemplate = await ctx.app.call('POST', '/api/task/template/copy', {
      token: ctx.user.token,
      body: { templateId: template.id },
    });
    expect(copyTemplate.status).toBe(403);
    const moveTemplate = await ctx.app.call('POST', '/api/task/template/move', {
      token: ctx.user.token,
      body: { templateId: template.id, taskId: official.id },
    });
    expect(moveTemplate.status).toBe(403);
  });

  it('answers unknown ids with the 404 envelope', async () => {
    for (const url of ['/api/task/nope', '/api/task/copiable/nope', '/api/task/template/list?taskId=nope']) {
      const res = await ctx.app.call('GET', url, { token: ctx.user.token });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 404, msg: '任务不存在' });
    }
  });
});
