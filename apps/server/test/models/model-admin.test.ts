import { afterAll, beforeAll, expect, it } from 'vitest';
import { type A1111Double, startA1111Double } from '../doubles/a1111-double.js';
import { type ComfyUiDouble, startComfyUiDouble } from '../doubles/comfyui-double.js';
import { describeServer } from '../helpers/suite.js';
import { registerUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const SD15 = 'v1-5-pruned-emaonly.safetensors [6ce0161689]';
const ANYTHING = 'anything-v5.safetensors [7f96a1a9ca]';

describeServer('models: admin management and import from registered backends', () => {
  const ctx = useTestApp({ admin: true });
  let a1111: A1111Double;
  let comfy: ComfyUiDouble;
  beforeAll(async () => {
    a1111 = await startA1111Double();
    comfy = await startComfyUiDouble();
  });
  afterAll(async () => {
    await a1111.close();
    await comfy.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: object) =>
    ctx.app.call(method, url, { token: ctx.admin, ...(body ? { body } : {}) });
  const register = async (name: string, kind: 'sdwebui' | 'comfyui', baseUrl: string, models: string[] = []) => {
    const res = await call('POST', '/api/admin/backends', { name, kind, baseUrl, models, enabled: true });
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data.id as string;
  };
  const newGroup = async (name: string) =>
    (await call('POST', '/api/admin/model-groups', { name })).body.data.id as string;
  const menu = async () => (await call('GET', '/api/art/model/menu?scope=all')).body.data as any[];

  it('lists the checkpoints an A1111 backend reports and imports the chosen ones into a group', async () => {
    const backendId = await register('导入用 A1111', 'sdwebui', a1111.url, [SD15]);
    const listed = await call('GET', `/api/admin/backends/${backendId}/checkpoints`);
    expect(listed.body.code).toBe(0);
    expect(listed.body.data).toEqual(
      expect.arrayContaining([
        { title: SD15, name: expect.any(String), registered: false },
        { title: ANYTHING, name: expect.any(String), registered: false },
      ]),
    );
    expect(a1111.requestsTo('/sdapi/v1/sd-models').length).toBeGreaterThan(0);

    const groupId = await newGroup('GPU 写实');
    const imported = await call('POST', '/api/admin/models/import', {
      backendId,
      checkpoints: [SD15, ANYTHING],
      groupId,
      baseModel: 'SD 1.5',
    });
    expect(imported.body).toMatchObject({ code: 0, data: { created: 2, skipped: 0 }, msg: '已导入 2 个模型' });
    const group = (await menu()).find((g) => g.id === groupId);
    expect(group.models).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ checkpoint: SD15, engine: 'sdwebui', baseModel: 'SD 1.5', enabled: true }),
        expect.objectContaining({ checkpoint: ANYTHING, engine: 'sdwebui' }),
      ]),
    );
    // The backend was limited to SD15: it now serves the imported checkpoint too, so the model can run.
    const backends = (await call('GET', '/api/admin/backends')).body.data as any[];
    expect(backends.find((b) => b.id === backendId).models).toEqual([SD15, ANYTHING]);

    const again = await call('GET', `/api/admin/backends/${backendId}/checkpoints`);
    expect(again.body.data.filter((c: any) => c.registered).map((c: any) => c.title)).toEqual(
      expect.arrayContaining([SD15, ANYTHING]),
    );
    const twice = await call('POST', '/api/admin/models/import', {
      backendId,
      checkpoints: [SD15],
      groupId,
      baseModel: 'SD 1.5',
    });
    expect(twice.body).toMatchObject({ code: 0, data: { created: 0, skipped: 1 } });
  });

  it('imports ComfyUI checkpoints from object_info and refuses what the backend does not report', async () => {
    const backendId = await register('导入用 ComfyUI', 'comfyui', comfy.url);
    const listed = await call('GET', `/api/admin/backends/${backendId}/checkpoints`);
    expect(listed.body.data.map((c: any) => c.title)).toEqual([
      'sd15/dreamshaper_8.safetensors',
      'sdxl/juggernautXL_v9.safetensors',
    ]);
    const groupId = await newGroup('ComfyUI');
    const refused = await call('POST', '/api/admin/models/import', {
      backendId,
      checkpoints: ['nope.safetensors'],
      groupId,
      baseModel: 'SDXL',
    });
    expect(refused.body).toMatchObject({ code: -1, msg: '后端没有模型「nope.safetensors」，请刷新列表后重试' });
    const imported = await call('POST', '/api/admin/models/import', {
      backendId,
      checkpoints: ['sdxl/juggernautXL_v9.safetensors'],
      groupId,
      baseModel: 'SDXL',
      enabled: false,
    });
    expect(imported.body).toMatchObject({ code: 0, data: { created: 1, skipped: 0 } });
    const group = (await menu()).find((g) => g.id === groupId);
    expect(group.models).toEqual([
      expect.objectContaining({ engine: 'comfyui', checkpoint: 'sdxl/juggernautXL_v9.safetensors', enabled: false }),
    ]);
  });

  it('says the list could not be read, not that a task was refused, when a backend answers 404 to it', async () => {
    // A ComfyUI address registered as AUTOMATIC1111: /sdapi/v1/sd-models is not there.
    const backendId = await register('类型填错的后端', 'sdwebui', comfy.url);
    const listed = await call('GET', `/api/admin/backends/${backendId}/checkpoints`);
    expect(listed.body.code).toBe(-1);
    expect(listed.body.msg).toMatch(/^读取「类型填错的后端」的模型列表失败：.*404/);
    expect(listed.body.msg).not.toContain('任务');
  });

  it('names an unreachable backend when its list cannot be read, and 404s an unknown one', async () => {
    const down = await startA1111Double();
    const backendId = await register('已关机', 'sdwebui', down.url);
    await down.close();
    const res = await call('GET', `/api/admin/backends/${backendId}/checkpoints`);
    expect(res.body.code).toBe(-1);
    expect(res.body.msg).toContain('读取「已关机」的模型列表失败');
    expect((await call('GET', '/api/admin/backends/nope/checkpoints')).status).toBe(404);
  });

  it('renames groups, deletes only empty ones, and edits, disables and deletes models', async () => {
    const groupId = await newGroup('临时分组');
    expect((await call('PUT', `/api/admin/model-groups/${groupId}`, { name: '改名分组' })).body.code).toBe(0);
    expect((await menu()).find((g) => g.id === groupId).name).toBe('改名分组');

    const body = { groupId, modelName: '手动模型', baseModel: 'SD 1.5', engine: 'builtin', checkpoint: 'builtin-ink' };
    const created = await call('POST', '/api/admin/models', body);
    const modelId = created.body.data.id;
    const busy = await call('DELETE', `/api/admin/model-groups/${groupId}`);
    expect(busy.body).toMatchObject({ code: -1, msg: '分组下还有模型，请先删除或移走这些模型' });

    const disabled = await call('PUT', `/api/admin/models/${modelId}`, { ...body, modelName: '水墨', enabled: false });
    expect(disabled.body.data).toMatchObject({ modelName: '水墨', enabled: false });
    const enabledMenu = (await call('GET', '/api/art/model/menu?scope=enabled')).body.data as any[];
    expect(enabledMenu.find((g) => g.id === groupId).models).toEqual([]);

    expect((await call('DELETE', `/api/admin/models/${modelId}`)).body.code).toBe(0);
    expect((await call('DELETE', `/api/admin/model-groups/${groupId}`)).body.code).toBe(0);
    expect((await menu()).some((g) => g.id === groupId)).toBe(false);
  });

  it('keeps the import and the group routes to admins', async () => {
    const user = await registerUser(ctx.app);
    const asUser = await ctx.app.call('GET', '/api/admin/backends/builtin/checkpoints', { token: user.token });
    expect(asUser.status).toBe(403);
    const importAsUser = await ctx.app.call('POST', '/api/admin/models/import', {
      token: user.token,
      body: { backendId: 'builtin', checkpoints: ['builtin-ink'], groupId: 'x', baseModel: 'SD 1.5' },
    });
    expect(importAsUser.status).toBe(403);
    const builtin = await call('GET', '/api/admin/backends/builtin/checkpoints');
    expect(builtin.body.data.map((c: any) => c.title)).toContain('builtin-ink');
  });
});
