import { beforeAll, expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { selectField, validStep } from '../helpers/template-steps.js';
import { useTestApp } from '../helpers/use-test-app.js';

describeServer('templates: drafts, publishing rules, steps, copies and moves', () => {
  const ctx = useTestApp({ admin: true, users: ['user'] });
  let taskId: string;
  let categoryId: string;
  beforeAll(async () => {
    const category = await ctx.app.call('POST', '/api/task', {
      token: ctx.admin,
      body: { name: '模板测试', published: true },
    });
    categoryId = category.body.data.id;
    const task = await ctx.app.call('POST', '/api/task', {
      token: ctx.admin,
      body: { parentId: categoryId, name: '模板任务', published: true },
    });
    taskId = task.body.data.id;
  });

  const save = (kind: 'draft' | 'publish', body: object, token = ctx.admin) =>
    ctx.app.call('POST', `/api/task/template/save/${kind}`, { token, body: { taskId, name: '测试模板', ...body } });

  it('hides drafts from users and shows them once published, with a version', async () => {
    const draft = await save('draft', { taskStepList: [validStep()] });
    expect(draft.body).toMatchObject({ code: 0, data: { status: 'draft', version: 0 } });
    const id = draft.body.data.templateId;
    expect((await ctx.app.call('GET', `/api/task/template/detail/${id}`, { token: ctx.user.token })).status).toBe(404);
    const list = await ctx.app.call('GET', `/api/task/template/list?taskId=${taskId}`, { token: ctx.user.token });
    expect(list.body.data[0].visTemplateList).toEqual([]);

    const published = await save('publish', { templateId: id, taskStepList: [validStep()] });
    expect(published.body).toMatchObject({ code: 0, msg: '发布成功', data: { status: 'published', version: 1 } });
    const detail = await ctx.app.call('GET', `/api/task/template/detail/${id}`, { token: ctx.user.token });
    expect(detail.body.data).toMatchObject({ name: '测试模板', status: 'published', taskId });
    expect(detail.body.data.taskStepList[0]).toMatchObject({
      stepIndex: 0,
      generateMode: 'txt2img',
      useParentImage: false,
    });
    const visible = await ctx.app.call('GET', `/api/task/template/list?taskId=${taskId}`, { token: ctx.user.token });
    expect(visible.body.data[0].visTemplateList[0]).toMatchObject({
      templateId: id,
      stepCount: 1,
      generateMode: 'txt2img',
    });
    const republished = await save('publish', { templateId: id, taskStepList: [validStep()] });
    expect(republished.body.data.version).toBe(2);
  });

  it('keeps users on the published version while an admin works on a draft of it', async () => {
    const first = await save('publish', { name: '线上版', taskStepList: [validStep({ name: '旧步骤' })] });
    const id = first.body.data.templateId;
    const draft = await save('draft', {
      templateId: id,
      name: '草稿版',
      taskStepList: [validStep({ name: '新步骤' }), validStep({ name: '新增步骤' })],
    });
    expect(draft.body.data).toMatchObject({ status: 'draft', version: 1 });

    const seen = (await ctx.app.call('GET', `/api/task/template/detail/${id}`, { token: ctx.user.token })).body.data;
    expect(seen).toMatchObject({ name: '线上版', status: 'published', version: 1 });
    expect(seen.taskStepList.map((s: any) => s.name)).toEqual(['旧步骤']);
    const cfg = await ctx.app.call('GET', `/api/task/template/task/cfg/${seen.taskStepList[0].id}`, {
      token: ctx.user.token,
    });
    expect(cfg.body.code).toBe(0);
    const tree = (await ctx.app.call('GET', '/api/task/tree', { token: ctx.user.token })).body.data;
    const node = tree.flatMap((c: any) => c.children.flatMap((t: any) => t.children)).find((t: any) => t.id === id);
    expect(node).toMatchObject({ name: '线上版', published: true });
    const list = (await ctx.app.call('GET', `/api/task/template/list?taskId=${taskId}`, { token: ctx.user.token })).body
      .data;
    expect(list[0].visTemplateList.find((t: any) => t.templateId === id)).toMatchObject({
      name: '线上版',
      stepCount: 1,
    });

    const editing = (await ctx.app.call('GET', `/api/task/template/detail/${id}`, { token: ctx.admin })).body.data;
    expect(editing).toMatchObject({ name: '草稿版', status: 'draft' });
    expect(editing.taskStepList).toHaveLength(2);
    const adminTree = (await ctx.app.call('GET', '/api/task/tree/all', { token: ctx.admin })).body.data;
    const adminNode = adminTree
      .flatMap((c: any) => c.children.flatMap((t: any) => t.children))
      .find((t: any) => t.id === id);
    expect(adminNode).toMatchObject({ name: '草稿版', status: 'draft', published: true });

    // A user's copy takes the published version, not the admin's draft.
    const mine = await ctx.app.call('POST', '/api/task/copy_to_mine', { token: ctx.user.token, body: { taskId } });
    const myTree = (await ctx.app.call('GET', '/api/task/tree/mine', { token: ctx.user.token })).body.data;
    const myTask = myTree[0].children.find((t: any) => t.id === mine.body.data.id);
    expect(myTask.children.map((t: any) => t.name)).toContain('线上版');
    expect(myTask.children.map((t: any) => t.name)).not.toContain('草稿版');

    await save('publish', { templateId: id, name: '草稿版', taskStepList: editing.taskStepList });
    const after = (await ctx.app.call('GET', `/api/task/template/detail/${id}`, { token: ctx.user.token })).body.data;
    expect(after).toMatchObject({ name: '草稿版', version: 2 });
    expect(after.taskStepList).toHaveLength(2);
  });

  it('refuses to publish an invalid form config, naming the step and field', async () => {
    const cases: [object, string][] = [
      [
        { formConfig: [selectField('sampler', '采样器')] },
        '无法发布：步骤 1「生成」：表单项「采样器」缺少选项或选项来源',
      ],
      [
        { formConfig: [selectField('sampler', '采样器', { url: '/api/options/nothing' })] },
        '无法发布：步骤 1「生成」：表单项「采样器」的选项来源 /api/options/nothing 不存在',
      ],
      [{ parameters: { modelId: 'no-such-model' } }, '无法发布：步骤 1「生成」：引用的模型不存在（no-such-model）'],
      [
        { parameters: { loras: [{ loraId: 'no-such-lora', weight: 0.8 }] } },
        '无法发布：步骤 1「生成」：引用的 LoRA 风格不存在（no-such-lora）',
      ],
      [
        {
          formConfig: [
            selectField('sampler', '采样器', { url: '/api/options/samplers' }),
            selectField('loras', 'LoRA 风格', { option: [{ label: '不存在', value: 'gone-lora' }] }),
          ],
        },
        '无法发布：步骤 1「生成」：引用的 LoRA 风格不存在（gone-lora）',
      ],
      [{ useParentImage: true }, '无法发布：步骤 1「生成」：第一步没有上一步的图片可用'],
      [
        { generateMode: 'upscale' },
        '无法发布：步骤 1「生成」：「高清放大」需要输入图片，请使用上一步的图片或添加图片上传项 initImageFileId',
      ],
      [
        {
          formConfig: [
            {
              type: 'collapse',
              name: 'controlNets',
              text: 'ControlNet',
              show: true,
              disabled: false,
              checked: false,
              children: [selectField('controlnetModel', '模型', { url: '/api/options/controlnet/models' })],
            },
          ],
        },
        '无法发布：步骤 1「生成」：表单项「ControlNet」是 ControlNet 单元，必须包含预处理器 controlnetModule',
      ],
      [
        {
          formConfig: [
            {
              type: 'slider',
              name: 'steps',
              text: '步数',
              min: 50,
              max: 1,
              show: true,
              disabled: false,
              checked: false,
            },
          ],
        },
        '无法发布：步骤 1「生成」：表单项「步数」的最小值必须小于最大值',
      ],
    ];
    for (const [step, msg] of cases) {
      const res = await save('publish', { name: '坏模板', taskStepList: [validStep(step)] });
      expect(res.body).toMatchObject({ code: -1, msg });
    }
    // Saving as a draft keeps unfinished work without those checks.
    expect(
      (await save('draft', { taskStepList: [validStep({ formConfig: [selectField('sampler', '采样器')] })] })).body
        .code,
    ).toBe(0);
  });

  it('rejects malformed payloads by schema, naming the field', async () => {
    const noSteps = await save('draft', { taskStepList: [] });
    expect(noSteps.status).toBe(400);
    expect(noSteps.body.msg).toBe('模板至少需要一个步骤');
    const badType = await save('draft', {
      taskStepList: [validStep({ formConfig: [{ type: 'colour', name: 'x', text: 'x' } as never] })],
    });
    expect(badType.status).toBe(400);
    expect(badType.body.msg).toBe('表单项类型不正确');
    const badMode = await save('draft', { taskStepList: [validStep({ generateMode: 'video' as never })] });
    expect(badMode.body.msg).toBe('生成方式不正确');
  });

  it('refuses templates placed directly under a category, and user writes to official content', async () => {
    const under = await ctx.app.call('POST', '/api/task/template/save/draft', {
      token: ctx.admin,
      body: { taskId: categoryId, name: '放错了', taskStepList: [validStep()] },
    });
    expect(under.body).toMatchObject({ code: -1, msg: '模板只能放在任务下，不能直接放在分类下' });
    const byUser = await save('publish', { taskStepList: [validStep()] }, ctx.user.token);
    expect(byUser.status).toBe(403);
    const published = await save('publish', { taskStepList: [validStep()] });
    const del = await ctx.app.call('DELETE', `/api/task/template/${published.body.data.templateId}`, {
      token: ctx.user.token,
    });
    expect(del.status).toBe(403);
  });

  it('serves a step config, the owning task, and an empty related-works page', async () => {
    const saved = await save('publish', {
      taskStepList: [validStep(), validStep({ name: '放大', generateMode: 'upscale', useParentImage: true })],
    });
    const id = saved.body.data.templateId;
    const detail = await ctx.app.call('GET', `/api/task/template/detail/${id}`, { token: ctx.user.token });
    const stepId = detail.body.data.taskStepList[1].id;
    const cfg = await ctx.app.call('GET', `/api/task/template/task/cfg/${stepId}`, { token: ctx.user.token });
    expect(cfg.body.data).toMatchObject({ stepId, templateId: id, generateMode: 'upscale' });
    expect(cfg.body.data.formConfig[0]).toMatchObject({ name: 'sampler', url: '/api/options/samplers' });
    const owner = await ctx.app.call('GET', `/api/task/template/task/${id}`, { token: ctx.user.token });
    expect(owner.body.data).toMatchObject({ task: { id: taskId }, category: { id: categoryId } });
    const works = await ctx.app.call('GET', `/api/task/template/related/work?templateId=${id}`, {
      token: ctx.user.token,
    });
    expect(works.body.data).toEqual({ list: [], current: 1, pageSize: 10, total: 0, nextCursor: null });
    expect(
      (await ctx.app.call('GET', '/api/task/template/task/cfg/nope', { token: ctx.user.token })).body,
    ).toMatchObject({
      code: 404,
      msg: '步骤不存在',
    });
    expect((await ctx.app.call('GET', '/api/task/template/detail/nope', { token: ctx.user.token })).body.msg).toBe(
      '模板不存在',
    );
  });

  it('deletes a step and renumbers the rest, but never the last step', async () => {
    const saved = await save('draft', {
      taskStepList: [validStep({ name: '一' }), validStep({ name: '二' }), validStep({ name: '三' })],
    });
    const id = saved.body.data.templateId;
    const steps = (await ctx.app.call('GET', `/api/task/template/detail/${id}`, { token: ctx.admin })).body.data
      .taskStepList;
    expect(
      (await ctx.app.call('DELETE', `/api/task/template/step/${steps[0].id}`, { token: ctx.admin })).body.msg,
    ).toBe('删除成功');
    const after = (await ctx.app.call('GET', `/api/task/template/detail/${id}`, { token: ctx.admin })).body.data
      .taskStepList;
    expect(after.map((s: any) => [s.name, s.stepIndex])).toEqual([
      ['二', 0],
      ['三', 1],
    ]);
    await ctx.app.call('DELETE', `/api/task/template/step/${after[0].id}`, { token: ctx.admin });
    const last = await ctx.app.call('DELETE', `/api/task/template/step/${after[1].id}`, { token: ctx.admin });
    expect(last.body).toMatchObject({ code: -1, msg: '模板至少保留一个步骤' });
  });

  it('copies a template as a draft and moves it to another task', async () => {
    const saved = await save('publish', { name: '可复制', taskStepList: [validStep()] });
    const copy = await ctx.app.call('POST', '/api/task/template/copy', {
      token: ctx.admin,
      body: { templateId: saved.body.data.templateId },
    });
    const copied = (
      await ctx.app.call('GET', `/api/task/template/detail/${copy.body.data.templateId}`, { token: ctx.admin })
    ).body.data;
    expect(copied).toMatchObject({ name: '可复制（副本）', status: 'draft' });

    const other = await ctx.app.call('POST', '/api/task', {
      token: ctx.admin,
      body: { parentId: categoryId, name: '另一个任务' },
    });
    const moved = await ctx.app.call('POST', '/api/task/template/move', {
      token: ctx.admin,
      body: { templateId: copied.templateId, taskId: other.body.data.id },
    });
    expect(moved.body.msg).toBe('移动成功');
    expect(
      (await ctx.app.call('GET', `/api/task/template/task/${copied.templateId}`, { token: ctx.admin })).body.data.task
        .id,
    ).toBe(other.body.data.id);
    const toCategory = await ctx.app.call('POST', '/api/task/template/move', {
      token: ctx.admin,
      body: { templateId: copied.templateId, taskId: categoryId },
    });
    expect(toCategory.body.msg).toBe('模板只能放在任务下，不能直接放在分类下');
  });

  it('publishes the demo templates as they are: multi-step and ControlNet ones included', async () => {
    const tree = (await ctx.app.call('GET', '/api/task/tree', { token: ctx.user.token })).body.data;
    const templateIds = tree.flatMap((c: any) => c.children.flatMap((t: any) => t.children.map((x: any) => x.id)));
    let multiStep = 0;
    let controlNet = 0;
    for (const id of templateIds) {
      const detail = (await ctx.app.call('GET', `/api/task/template/detail/${id}`, { token: ctx.admin })).body.data;
      if (detail.taskStepList.length > 1) multiStep++;
      if (detail.taskStepList.some((s: any) => s.formConfig.some((f: any) => f.name === 'controlNets'))) controlNet++;
      const republish = await ctx.app.call('POST', '/api/task/template/save/publish', {
        token: ctx.admin,
        body: { templateId: id, taskId: detail.taskId, name: detail.name, taskStepList: detail.taskStepList },
      });
      expect(republish.body, detail.name).toMatchObject({ code: 0 });
    }
    expect(multiStep).toBeGreaterThanOrEqual(2);
    expect(controlNet).toBeGreaterThanOrEqual(2);
  });
});
