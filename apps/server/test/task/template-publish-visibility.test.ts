import { TEMPLATE_WITHOUT_PROMPTS } from '@huafang/contracts';
import { beforeAll, expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { validStep } from '../helpers/template-steps.js';
import { useTestApp } from '../helpers/use-test-app.js';

describeServer('templates: 发布 says whether users can see the template', () => {
  const ctx = useTestApp({ admin: true, users: ['user'] });
  let categoryId: string;
  let hiddenTaskId: string;

  beforeAll(async () => {
    const category = await ctx.app.call('POST', '/api/task', {
      token: ctx.admin,
      body: { name: '可见性', published: true },
    });
    categoryId = category.body.data.id;
    const task = await ctx.app.call('POST', '/api/task', {
      token: ctx.admin,
      body: { parentId: categoryId, name: '还没发布的任务', published: false },
    });
    hiddenTaskId = task.body.data.id;
  });

  const save = (kind: 'draft' | 'publish', body: object) =>
    ctx.app.call('POST', `/api/task/template/save/${kind}`, {
      token: ctx.admin,
      body: { taskId: hiddenTaskId, name: '可见性模板', ...body },
    });

  it('refuses to publish a template without a single prompt word, and keeps it as a draft', async () => {
    const empty = [validStep({ promptGroup: [] }), validStep({ name: '第二步', promptGroup: [] })];
    const refused = await save('publish', { taskStepList: empty });
    expect(refused.body).toMatchObject({ code: -1, msg: `无法发布：${TEMPLATE_WITHOUT_PROMPTS}` });
    const blank = await save('publish', {
      taskStepList: [validStep({ promptGroup: [{ id: 'p1', groupName: '空', promptText: '  ', custom: '0' }] })],
    });
    expect(blank.body.msg).toBe(`无法发布：${TEMPLATE_WITHOUT_PROMPTS}`);
    const draft = await save('draft', { taskStepList: empty });
    expect(draft.body).toMatchObject({ code: 0, data: { status: 'draft' } });
    // One step with prompts is enough: a later step may work on the image alone.
    const ok = await save('publish', { taskStepList: [validStep(), validStep({ name: '第二步', promptGroup: [] })] });
    expect(ok.body).toMatchObject({ code: 0, data: { status: 'published' } });
  });

  it('names the task and category with whether they are published; after 发布任务 users see the template', async () => {
    const published = await save('publish', { taskStepList: [validStep()] });
    expect(published.body.data).toMatchObject({
      status: 'published',
      task: { id: hiddenTaskId, name: '还没发布的任务', published: false },
      category: { id: categoryId, name: '可见性', published: true },
    });
    const id = published.body.data.templateId;
    const user = ctx.user.token;
    expect((await ctx.app.call('GET', `/api/task/template/detail/${id}`, { token: user })).status).toBe(404);

    const task = await ctx.app.call('PUT', `/api/task/${hiddenTaskId}`, {
      token: ctx.admin,
      body: { published: true },
    });
    expect(task.body).toMatchObject({ code: 0, data: { published: true } });
    expect((await ctx.app.call('GET', `/api/task/template/detail/${id}`, { token: user })).body.data).toMatchObject({
      name: '可见性模板',
      status: 'published',
    });
    const again = await save('publish', { templateId: id, taskStepList: [validStep()] });
    expect(again.body.data.task).toMatchObject({ published: true });
  });
});
