import { beforeAll, expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';

describeServer('templates: renaming is not a new version', () => {
  const ctx = useTestApp({ admin: true, users: ['user'] });
  let templateId: string;
  beforeAll(async () => {
    const row = await ctx.app.db
      .selectFrom('templates')
      .select('id')
      .where('name', '=', '水墨山水')
      .executeTakeFirstOrThrow();
    templateId = row.id;
  });

  const detail = (token: string) => ctx.app.call('GET', `/api/task/template/detail/${templateId}`, { token });
  const rename = (token: string, name: string) =>
    ctx.app.call('POST', '/api/task/template/rename', { token, body: { templateId, name } });

  it('renames the published template for users without raising its version', async () => {
    const before = (await detail(ctx.user.token)).body.data;
    expect((await rename(ctx.admin, '水墨山水·新')).body).toMatchObject({ code: 0, msg: '重命名成功' });
    const after = (await detail(ctx.user.token)).body.data;
    expect(after).toMatchObject({ name: '水墨山水·新', version: before.version, status: 'published' });
    expect(after.taskStepList).toEqual(before.taskStepList);
  });

  it('keeps a pending draft a draft and its unpublished edits away from users', async () => {
    const working = (await detail(ctx.admin)).body.data;
    const draft = await ctx.app.call('POST', '/api/task/template/save/draft', {
      token: ctx.admin,
      body: {
        templateId,
        taskId: working.taskId,
        name: working.name,
        description: '草稿里的新描述',
        visibility: working.visibility,
        taskStepList: working.taskStepList,
      },
    });
    expect(draft.body.code).toBe(0);
    await rename(ctx.admin, '水墨山水·再改');
    expect((await detail(ctx.admin)).body.data).toMatchObject({ name: '水墨山水·再改', status: 'draft' });
    const seen = (await detail(ctx.user.token)).body.data;
    expect(seen.name).toBe('水墨山水·再改');
    expect(seen.description).not.toBe('草稿里的新描述');
  });

  it('refuses users on official templates and bad names', async () => {
    expect((await rename(ctx.user.token, '我的名字')).status).toBe(403);
    const blank = await rename(ctx.admin, '  ');
    expect(blank.status).toBe(400);
    expect(blank.body.msg).toContain('请填写模板名称');
  });
});
