import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { createTestApp, loginAdmin, registerUser, type TestApp, type TestUser } from '../helpers/test-app.js';

const countWords = (nodes: any[]): number =>
  nodes.reduce((n, node) => n + (node.kind === 'word' ? 1 : countWords(node.children ?? [])), 0);

describeServer('prompt library, model menu and option sources', () => {
  let app: TestApp;
  let admin: string;
  let user: TestUser;
  beforeAll(async () => {
    app = await createTestApp();
    admin = await loginAdmin(app);
    user = await registerUser(app);
  });
  afterAll(() => app.close());

  it('seeds ≥300 positive and ≥80 negative words; helpUrlFlag 01 reads the featured ones only', async () => {
    const full = (await app.call('GET', '/api/prompt/tree?helpUrlFlag=02', { token: user.token })).body.data;
    const featured = (await app.call('GET', '/api/prompt/tree', { token: user.token })).body.data;
    const negative = (await app.call('GET', '/api/prompt/negative/tree?helpUrlFlag=02', { token: user.token })).body
      .data;
    expect(countWords(full)).toBeGreaterThanOrEqual(300);
    expect(countWords(negative)).toBeGreaterThanOrEqual(80);
    expect(countWords(featured)).toBeGreaterThan(0);
    expect(countWords(featured)).toBeLessThan(countWords(full));
    expect(full.map((c: any) => c.name)).toEqual(
      expect.arrayContaining(['画质', '风格', '人物', '光照', '构图', '色彩']),
    );
    const word = full[0].children[0].children[0];
    expect(word).toMatchObject({
      kind: 'word',
      name: expect.any(String),
      text: expect.stringMatching(/^[\x20-\x7e]+$/),
    });
  });

  it('searches the list by Chinese or English, pages it, and narrows by category', async () => {
    const zh = await app.call('GET', `/api/prompt/list?helpUrlFlag=02&keyword=${encodeURIComponent('水墨')}`, {
      token: user.token,
    });
    expect(zh.body.data.list.length).toBeGreaterThan(0);
    expect(zh.body.data.list.every((w: any) => w.label.includes('水墨') || w.text.includes('水墨'))).toBe(true);
    const en = await app.call('GET', '/api/prompt/list?helpUrlFlag=02&keyword=MASTERPIECE', { token: user.token });
    expect(en.body.data.list.some((w: any) => w.text === 'masterpiece')).toBe(true);
    const page = await app.call('GET', '/api/prompt/list?helpUrlFlag=02&current=2&pageSize=10', { token: user.token });
    expect(page.body.data).toMatchObject({ current: 2, pageSize: 10 });
    expect(page.body.data.list).toHaveLength(10);
    expect(page.body.data.total).toBeGreaterThanOrEqual(300);
    const category = (await app.call('GET', '/api/prompt/tree?helpUrlFlag=02', { token: user.token })).body.data[0];
    const inCategory = await app.call('GET', `/api/prompt/list?helpUrlFlag=02&categoryId=${category.id}&pageSize=200`, {
      token: user.token,
    });
    expect(inCategory.body.data.total).toBe(countWords([category]));
    const negative = await app.call('GET', '/api/prompt/negative/list?helpUrlFlag=02&keyword=bad', {
      token: user.token,
    });
    expect(negative.body.data.list.some((w: any) => w.text === 'bad anatomy')).toBe(true);
  });

  it('lets admins edit, add and delete words; users see the change; users cannot edit', async () => {
    const target = (await app.call('GET', '/api/prompt/list?helpUrlFlag=02&keyword=masterpiece', { token: user.token }))
      .body.data.list[0];
    const byUser = await app.call('PUT', `/api/admin/prompt/words/${target.id}`, {
      token: user.token,
      body: { label: '改', text: 'x' },
    });
    expect(byUser.status).toBe(403);
    const edited = await app.call('PUT', `/api/admin/prompt/words/${target.id}`, {
      token: admin,
      body: { label: '超级杰作', text: 'masterpiece', featured: true },
    });
    expect(edited.body).toMatchObject({ code: 0, msg: '设置成功', data: { label: '超级杰作' } });
    const tree = (await app.call('GET', '/api/prompt/tree', { token: user.token })).body.data;
    expect(JSON.stringify(tree)).toContain('超级杰作');

    const badText = await app.call('PUT', `/api/admin/prompt/words/${target.id}`, {
      token: admin,
      body: { label: '杰作', text: '杰作' },
    });
    expect(badText.status).toBe(400);
    expect(badText.body.msg).toBe('英文提示词只能包含英文字符');

    const added = await app.call('POST', '/api/admin/prompt/words', {
      token: admin,
      body: { categoryId: target.categoryId, label: '新词', text: 'new word' },
    });
    expect(added.body.data).toMatchObject({ label: '新词', featured: false });
    expect((await app.call('DELETE', `/api/admin/prompt/words/${added.body.data.id}`, { token: admin })).body.msg).toBe(
      '删除成功',
    );
    expect((await app.call('DELETE', `/api/admin/prompt/words/${added.body.data.id}`, { token: admin })).status).toBe(
      404,
    );
  });

  it('serves the model menu in three groups; disabled models only with scope=all', async () => {
    const menu = (await app.call('GET', '/api/art/model/menu?scope=all', { token: user.token })).body.data;
    expect(menu.map((g: any) => g.name)).toEqual(['写实', '动漫', '国风']);
    const model = menu[0].models[0];
    expect(model).toMatchObject({ id: expect.any(String), modelName: '写实人像', engine: 'builtin', enabled: true });

    const byUser = await app.call('PUT', `/api/admin/models/${model.id}`, {
      token: user.token,
      body: { ...model, groupId: menu[0].id },
    });
    expect(byUser.status).toBe(403);
    const disabled = await app.call('PUT', `/api/admin/models/${model.id}`, {
      token: admin,
      body: {
        groupId: menu[0].id,
        modelName: model.modelName,
        baseModel: model.baseModel,
        engine: 'builtin',
        checkpoint: model.checkpoint,
        enabled: false,
      },
    });
    expect(disabled.body.data.enabled).toBe(false);
    const enabledOnly = (await app.call('GET', '/api/art/model/menu', { token: user.token })).body.data;
    expect(enabledOnly[0].models.some((m: any) => m.id === model.id)).toBe(false);
    const options = (await app.call('GET', '/api/options/models', { token: user.token })).body.data;
    expect(options.some((o: any) => o.value === model.id)).toBe(false);

    const bad = await app.call('POST', '/api/admin/models', {
      token: admin,
      body: { groupId: menu[0].id, modelName: '', baseModel: 'SD 1.5', engine: 'midjourney', checkpoint: 'x' },
    });
    expect(bad.status).toBe(400);
    const created = await app.call('POST', '/api/admin/models', {
      token: admin,
      body: {
        groupId: menu[2].id,
        modelName: '青绿山水',
        baseModel: 'SDXL',
        engine: 'sdwebui',
        checkpoint: 'qinglv.safetensors',
      },
    });
    expect(created.body.data).toMatchObject({ modelName: '青绿山水', engine: 'sdwebui', enabled: true });
  });

  it('serves the option sources that form configs point to, to logged-in users only', async () => {
    const samplers = await app.call('GET', '/api/options/samplers', { token: user.token });
    expect(samplers.body.data).toContainEqual({ label: 'Euler a', value: 'Euler a' });
    const modules = (await app.call('GET', '/api/options/controlnet/modules', { token: user.token })).body.data;
    const canny = modules.find((m: any) => m.value === 'canny');
    expect(canny.moduleName).toBe('canny');
    expect(JSON.parse(canny.fromConfig)).toEqual(expect.arrayContaining(['thresholdA', 'thresholdB']));
    expect((await app.call('GET', '/api/options/sizes', { token: user.token })).body.data.length).toBeGreaterThan(3);
    expect(
      (await app.call('GET', '/api/options/controlnet/models', { token: user.token })).body.data.length,
    ).toBeGreaterThan(0);
    expect((await app.call('GET', '/api/options/samplers')).status).toBe(401);
  });
});
