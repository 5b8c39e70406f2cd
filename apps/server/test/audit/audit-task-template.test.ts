import { expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { validStep } from '../helpers/template-steps.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { auditPage, callFrom } from './audit-helpers.js';

/**
 * Task and template routes are shared with users (their own tasks), so requireAdmin does not guard them: an admin's
 * edits there are still admin actions, and each names the admin and the task or template it changed.
 */
describeServer('audit trail: an admin editing tasks and templates', () => {
  const ctx = useTestApp({ admin: true, users: ['user'] });

  /** The one entry a request from `ip` left. */
  const only = async (ip: string) => {
    const { list } = await auditPage(ctx.app, ctx.admin, { ip, pageSize: 100 });
    expect(list).toHaveLength(1);
    return list[0]!;
  };

  it('names the admin and the task when one is created, edited and deleted', async () => {
    const created = await callFrom(ctx.app, '192.0.2.80', 'POST', '/api/task', {
      token: ctx.admin,
      body: { name: '审计分类' },
    });
    expect(created.body.code).toBe(0);
    const categoryId = created.body.data.id;
    // The new id is only in the answer.
    expect(await only('192.0.2.80')).toMatchObject({
      action: 'admin.request',
      role: 'admin',
      actorName: '管理员',
      targetType: 'task',
      targetId: categoryId,
      targetName: '审计分类',
      detail: { method: 'POST', route: '/api/task', status: 200 },
    });

    // 发布 sends no name: the trail looks it up.
    const published = await callFrom(ctx.app, '192.0.2.81', 'PUT', `/api/task/${categoryId}`, {
      token: ctx.admin,
      body: { published: true },
    });
    expect(published.body.code).toBe(0);
    expect(await only('192.0.2.81')).toMatchObject({
      actorName: '管理员',
      targetType: 'task',
      targetId: categoryId,
      targetName: '审计分类',
      detail: { method: 'PUT', route: '/api/task/:id', body: { published: true } },
    });

    // Deleted, it is still named: the name was read before the deletion.
    const removed = await callFrom(ctx.app, '192.0.2.82', 'DELETE', `/api/task/${categoryId}`, { token: ctx.admin });
    expect(removed.body.code).toBe(0);
    expect(await only('192.0.2.82')).toMatchObject({
      actorName: '管理员',
      targetType: 'task',
      targetId: categoryId,
      targetName: '审计分类',
    });
  });

  it('names the admin and the template, not the task it sits in, for a save, a cover change and a deletion', async () => {
    const category = await ctx.app.call('POST', '/api/task', { token: ctx.admin, body: { name: '模板审计分类' } });
    const task = await ctx.app.call('POST', '/api/task', {
      token: ctx.admin,
      body: { parentId: category.body.data.id, name: '模板审计任务' },
    });
    const taskId = task.body.data.id;

    const saved = await callFrom(ctx.app, '192.0.2.83', 'POST', '/api/task/template/save/draft', {
      token: ctx.admin,
      body: { taskId, name: '审计模板', taskStepList: [validStep(), validStep({ name: '放大' })] },
    });
    expect(saved.body.code).toBe(0);
    const templateId = saved.body.data.templateId;
    expect(await only('192.0.2.83')).toMatchObject({
      actorName: '管理员',
      targetType: 'template',
      targetId: templateId,
      targetName: '审计模板',
    });

    // A new cover: the body names the template and the task; the trail names the template.
    const detail = await ctx.app.call('GET', `/api/task/template/detail/${templateId}`, { token: ctx.admin });
    const steps = detail.body.data.taskStepList.map(({ name, generateMode, promptGroup, formConfig }: any) => ({
      name,
      generateMode,
      promptGroup,
      formConfig,
    }));
    const recovered = await callFrom(ctx.app, '192.0.2.84', 'POST', '/api/task/template/save/publish', {
      token: ctx.admin,
      body: { templateId, taskId, name: '审计模板', cover: '/api/files/cover-of-audit', taskStepList: steps },
    });
    expect(recovered.body.code, recovered.body.msg).toBe(0);
    expect(await only('192.0.2.84')).toMatchObject({
      actorName: '管理员',
      targetType: 'template',
      targetId: templateId,
      targetName: '审计模板',
      detail: { route: '/api/task/template/save/publish', body: { cover: '/api/files/cover-of-audit' } },
    });

    const featured = await callFrom(ctx.app, '192.0.2.85', 'POST', '/api/task/template/featured', {
      token: ctx.admin,
      body: { templateId, featured: true },
    });
    expect(featured.body.code).toBe(0);
    expect(await only('192.0.2.85')).toMatchObject({
      targetType: 'template',
      targetId: templateId,
      targetName: '审计模板',
    });

    const stepId = (await ctx.app.call('GET', `/api/task/template/detail/${templateId}`, { token: ctx.admin })).body
      .data.taskStepList[1].id;
    const stepGone = await callFrom(ctx.app, '192.0.2.86', 'DELETE', `/api/task/template/step/${stepId}`, {
      token: ctx.admin,
    });
    expect(stepGone.body.code, stepGone.body.msg).toBe(0);
    expect(await only('192.0.2.86')).toMatchObject({
      targetType: 'template_step',
      targetId: stepId,
      targetName: '审计模板 › 放大',
    });

    const gone = await callFrom(ctx.app, '192.0.2.87', 'DELETE', `/api/task/template/${templateId}`, {
      token: ctx.admin,
    });
    expect(gone.body.code).toBe(0);
    expect(await only('192.0.2.87')).toMatchObject({
      actorName: '管理员',
      targetType: 'template',
      targetId: templateId,
      targetName: '审计模板',
    });
  });

  it('leaves a user on the same routes out of the admin trail', async () => {
    const refused = await callFrom(ctx.app, '192.0.2.88', 'POST', '/api/task', {
      token: ctx.user.token,
      body: { name: '用户的分类' },
    });
    expect(refused.body.code).not.toBe(0);
    expect((await auditPage(ctx.app, ctx.admin, { ip: '192.0.2.88' })).list).toEqual([]);
  });
});
