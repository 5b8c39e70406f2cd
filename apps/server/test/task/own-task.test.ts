import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { createTestApp, registerUser, type TestApp, type TestUser } from '../helpers/test-app.js';

describeServer('tasks: a copy in 我的任务 belongs to its owner', () => {
  let app: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let copyId: string;
  beforeAll(async () => {
    app = await createTestApp();
    owner = await registerUser(app);
    other = await registerUser(app);
    const tree = await app.call('GET', '/api/task/tree', { token: owner.token });
    const source = (tree.body.data as any[]).flatMap((c) => c.children).find((t: any) => t.name === '头像生成');
    const copy = await app.call('POST', '/api/task/copy_to_mine', { token: owner.token, body: { taskId: source.id } });
    expect(copy.body.code).toBe(0);
    copyId = copy.body.data.id;
  });
  afterAll(() => app.close());

  const templatesOf = async (token: string) =>
    (await app.call('GET', `/api/task/template/list?taskId=${copyId}`, { token })).body.data[0]
      .visTemplateList as any[];

  it('lets the owner rename and describe the copy, and no one else', async () => {
    const edited = await app.call('PUT', `/api/task/${copyId}`, {
      token: owner.token,
      body: { name: '我的头像', description: '自己用' },
    });
    expect(edited.body).toMatchObject({ code: 0, data: { name: '我的头像', description: '自己用' } });
    const foreign = await app.call('PUT', `/api/task/${copyId}`, { token: other.token, body: { name: '别人的' } });
    expect(foreign.status).toBe(404);
  });

  it('lets the owner rename and delete the copy’s templates', async () => {
    const [first, second] = await templatesOf(owner.token);
    const renamed = await app.call('POST', '/api/task/template/rename', {
      token: owner.token,
      body: { templateId: first.templateId, name: '我的二次元' },
    });
    expect(renamed.body, JSON.stringify(renamed.body)).toMatchObject({ code: 0 });
    const removed = await app.call('DELETE', `/api/task/template/${second.templateId}`, { token: owner.token });
    expect(removed.body).toMatchObject({ code: 0 });
    expect((await templatesOf(owner.token)).map((t) => t.name)).toEqual(['我的二次元']);
  });

  it('lets the owner delete the copy', async () => {
    expect((await app.call('DELETE', `/api/task/${copyId}`, { token: owner.token })).body.code).toBe(0);
    const mine = await app.call('GET', '/api/task/tree/mine', { token: owner.token });
    expect(mine.body.data[0].children).toEqual([]);
  });
});
