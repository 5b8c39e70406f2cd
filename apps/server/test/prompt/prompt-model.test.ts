import { expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';

const countWords = (nodes: any[]): number =>
  nodes.reduce((n, node) => n + (node.kind === 'word' ? 1 : countWords(node.children ?? [])), 0);

describeServer('prompt library, model menu and option sources', () => {
  const ctx = useTestApp({ admin: true, users: ['user'] });

  it('seeds ≥300 positive and ≥80 negative words; helpUrlFlag 01 reads the featured ones only', async () => {
    const full = (await ctx.app.call('GET', '/api/prompt/tree?helpUrlFlag=02', { token: ctx.user.token })).body.data;
    const featured = (await ctx.app.call('GET', '/api/prompt/tree', { token: ctx.user.token })).body.data;
    const negative = (await ctx.app.call('GET', '/api/prompt/negative/tree?helpUrlFlag=02', { token: ctx.user.token }))
      .body.data;
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
    const zh = await ctx.app.call('GET', `/api/prompt/list?helpUrlFlag=02&keyword=${encodeURIComponent('水墨')}`, {
      token: ctx.user.token,
    });
    expect(zh.body.data.list.length).toBeGreaterThan(0);
    expect(zh.body.data.list.every((w: any) => w.label.includes('水墨') || w.text.includes('水墨'))).toBe(true);
    const en = await ctx.app.call('GET', '/api/prompt/list?helpUrlFlag=02&keyword=MASTERPIECE', {
      token: ctx.user.token,
    });
    expect(en.body.data.list.some((w: any) => w.text === 'masterpiece')).toBe(true);
    const page = await ctx.app.call('GET', '/api/prompt/list?helpUrlFlag=02&current=2&pageSize=10', {
      token: ctx.user.token,
    });
    expect(page.body.data).toMatchObject({ current: 2, pageSize: 10 });
    expect(page.body.data.list).toHaveLength(10);
    expect(page.body.data.total).toBeGreaterThanOrEqual(300);
    const category = (await ctx.app.call('GET', '/api/prompt/tree?helpUrlFlag=02', { token: ctx.user.token })).body
      .data[0];
    const inCategory = await ctx.app.call(
      'GET',
      `/api/prompt/list?helpUrlFlag=02&categoryId=${category.id}&pageSize=200`,
      {
        token: ctx.user.token,
      },
    );
    expect(inCategory.body.data.total).toBe(countWords([category]));
    const negative = await ctx.app.call('GET', '/api/prompt/negative/list?helpUrlFlag=02&keyword=bad', {
      token: ctx.user.token,
    });
    expect(negative.body.data.list.some((w: any) => w.text === 'bad anatomy')).toBe(true);
  });

  it('lets admins edit, add and delete words; users see the change; users cannot edit', async () => {
    const target = (
      await ctx.app.call('GET', '/api/prompt/list?helpUrlFlag=02&keyword=masterpiece', { token: ctx.user.token })
    ).body.data.list[0];
    const byUser = await ctx.app.call('PUT', `/api/admin/prompt/words/${target.id}`, {
      token: ctx.user.token,
      body: { label: '改', text: 'x' },
    });
    expect(byUser.status).toBe(403);
    const edited = await ctx.app.call('PUT', `/api/admin/prompt/words/${target.id}`, {
      token: ctx.admin,
      body: { label: '超级杰作', text: 'masterpiece', featured: true },
    });
    expect(edited.body).toMatchObject({ code: 0, msg: '设置成功', data: { label: '超级杰作' } });
    const tree = (await ctx.app.call('GET', '/api/prompt/tree', { token: ctx.user.token })).body.data;
    expect(JSON.stringify(tree)).toContain('超级杰作');

    const badText = await ctx.app.call('PUT', `/api/admin/prompt/words/${target.id}`, {
      token: ctx.admin,
      body: { label: '杰作', text: '杰作' },
    });
    expect(badText.status).toBe(400);
    expect(badText.body.msg).toBe('英文提示词只能包含英文字符');

    const added = await ctx.app.call('POST', '/api/admin/prompt/words', {
      token: ctx.admin,
      body: { categoryId: target.categoryId, label: '新词', text: 'new word' },
    });
    expect(added.body.data).toMatchObject({ label: '新词', featured: false });
    expect(
      (await ctx.app.call('DELETE', `/api/admin/prompt/words/${added.body.data.id}`, { token: ctx.admin })).body.msg,
    ).toBe('删除成功');
    expect(
      (await ctx.app.call('DELETE', `/api/admin/prompt/words/${added.body.data.id}`, { token: ctx.admin })).status,
    ).toBe(404);
  });

  it('serves the model menu in three groups; disabled models only with scope=all', async () => {
    const menu = (await ctx.app.call('GET', '/api/art/model/menu?scope=all', { token: ctx.user.token })).body.data;
    expect(menu.map((g: any) => g.name)).toEqual(['写实', '动漫', '国风']);
    const model = menu[0].models[0];
    expect(model).toMatchObject({ id: expect.any(String), modelName: '写实人像', engine: 'builtin', enabled: true });

    const byUser = await ctx.app.call('PUT', `/api/admin/models/${model.id}`, {
      token: ctx.user.token,
      body: { ...model, groupId: menu[0].id },
    });
    expect(byUser.status).toBe(403);
    const disabled = await ctx.app.call('PUT', `/api/admin/models/${model.id}`, {
      token: ctx.admin,
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
    const enabledOnly = (await ctx.app.call('GET', '/api/art/model/menu', { token: ctx.user.token })).body.data;
    expect(enabledOnly[0].models.some((m: any) => m.id === model.id)).toBe(false);
    const options = (await ctx.app.call('GET', '/api/options/models', { token: ctx.user.token })).body.data;
    expect(options.some((o: any) => o.value === model.id)).toBe(false);

    const bad = await ctx.app.call('POST', '/api/admin/models', {
      token: ctx.admin,
      body: { groupId: menu[0].id, modelName: '', baseModel: 'SD 1.5', engine: 'midjourney', checkpoint: 'x' },
    });
    expect(bad.status).toBe(400);
    const created = await ctx.app.call('POST', '/api/admin/models', {
      token: ctx.admin,
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
    const samplers = await ctx.app.call('GET', '/api/options/samplers', { token: ctx.user.token });
    expect(samplers.body.data).toContainEqual({ label: 'Euler a', value: 'Euler a' });
    const modules = (await ctx.app.call('GET', '/api/options/controlnet/modules', { token: ctx.user.token })).body.data;
    const canny = modules.find((m: any) => m.value === 'canny');
    expect(canny.moduleName).toBe('canny');
    expect(JSON.parse(canny.fromConfig)).toEqual(expect.arrayContaining(['thresholdA', 'thresholdB']));
    expect(
      (await ctx.app.call('GET', '/api/options/sizes', { token: ctx.user.token })).body.data.length,
    ).toBeGreaterThan(3);
    expect(
      (await ctx.app.call('GET', '/api/options/controlnet/models', { token: ctx.user.token })).body.data.length,
    ).toBeGreaterThan(0);
    expect((await ctx.app.call('GET', '/api/options/samplers')).status).toBe(401);
  });
});
