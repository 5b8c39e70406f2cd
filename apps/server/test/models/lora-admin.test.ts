import { afterAll, beforeAll, expect, it } from 'vitest';
import { type A1111Double, startA1111Double } from '../doubles/a1111-double.js';
import { type ComfyUiDouble, startComfyUiDouble } from '../doubles/comfyui-double.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { addFamilyModel, loraAdmin } from './lora-helpers.js';

const SD15 = 'v1-5-pruned-emaonly.safetensors [6ce0161689]';

describeServer('models: LoRA styles and sync from the backends', () => {
  const ctx = useTestApp({ admin: true, users: ['user'] });
  const admin = loraAdmin(
    () => ctx.app,
    () => ctx.admin,
  );
  let a1111: A1111Double;
  let comfy: ComfyUiDouble;
  beforeAll(async () => {
    a1111 = await startA1111Double({
      vaes: ['vae-ft-mse-840000-ema-pruned.safetensors'],
      loras: [
        {
          name: 'ink_wash_sd15',
          metadata: { ss_base_model_version: 'sd_v1', sshs_model_hash: 'a1b2c3d4e5f60718293a4b5c6d7e8f90' },
        },
        { name: 'pony_neon', metadata: {} },
      ],
    });
    comfy = await startComfyUiDouble({ loras: ['sd15/ink_wash.safetensors', 'sdxl/film_grain_xl.safetensors'] });
  });
  afterAll(async () => {
    await a1111.close();
    await comfy.close();
  });

  it('refuses the admin routes to a user', async () => {
    const as = (method: string, url: string, body?: object) =>
      ctx.app.call(method, url, { token: ctx.user.token, ...(body ? { body } : {}) });
    expect((await as('GET', '/api/admin/loras')).status).toBe(403);
    expect((await as('POST', '/api/admin/models/sync')).status).toBe(403);
    expect((await as('DELETE', '/api/admin/loras/x')).status).toBe(403);
    const body = { name: '水墨', loraName: 'x', engine: 'builtin', styleGroup: '国风', family: '其他' };
    expect((await as('POST', '/api/admin/loras', body)).status).toBe(403);
    expect((await as('PUT', '/api/admin/loras/x', body)).status).toBe(403);
  });

  it('offers the demo LoRAs of the built-in engine to every user, each on the built-in backend', async () => {
    const styles = await ctx.app.call('GET', '/api/art/loras', { token: ctx.user.token });
    expect(styles.body.code).toBe(0);
    expect(styles.body.data.map((s: any) => s.loraName)).toEqual(['hf_ink_wash', 'hf_neon', 'hf_pastel', 'hf_sepia']);
    expect(styles.body.data[0]).toMatchObject({
      name: '水墨晕染',
      family: '其他',
      cover: null,
      triggerWords: ['ink wash painting', 'rice paper'],
      locked: false,
      unlockHint: null,
    });
    const listed = await admin.list();
    expect(listed.find((l) => l.loraName === 'hf_neon')).toMatchObject({
      engine: 'builtin',
      enabled: true,
      backends: ['内置演示引擎'],
    });
  });

  it('syncs checkpoints, LoRAs and VAEs from A1111, ComfyUI and the built-in engine; new LoRAs come disabled', async () => {
    const a1111Id = await admin.register('A1111 甲', 'sdwebui', a1111.url);
    const comfyId = await admin.register('ComfyUI 乙', 'comfyui', comfy.url);
    const result = await admin.sync();
    expect(result.newLoras).toBe(4);
    const byId = new Map(result.backends.map((b) => [b.backendId, b]));
    expect(byId.get(a1111Id)).toMatchObject({ ok: true, checkpoints: 3, loras: 2, vaes: 1 });
    expect(byId.get(comfyId)).toMatchObject({ ok: true, checkpoints: 2, loras: 2, vaes: 1 });
    expect(byId.get('builtin')).toMatchObject({ ok: true, checkpoints: 6, loras: 4, vaes: 0 });

    const listed = await admin.list();
    expect(listed.find((l) => l.loraName === 'ink_wash_sd15')).toMatchObject({
      name: 'ink_wash_sd15',
      engine: 'sdwebui',
      enabled: false,
      family: 'SD1.5',
      hash: 'a1b2c3d4e5f6',
      backends: ['A1111 甲'],
    });
    expect(listed.find((l) => l.loraName === 'pony_neon')).toMatchObject({ family: 'Pony', hash: null });
    expect(listed.find((l) => l.loraName === 'sd15/ink_wash.safetensors')).toMatchObject({
      name: 'ink_wash',
      engine: 'comfyui',
      family: 'SD1.5',
      enabled: false,
      backends: ['ComfyUI 乙'],
    });
    expect(listed.find((l) => l.loraName === 'sdxl/film_grain_xl.safetensors')).toMatchObject({ family: 'SDXL' });
    // Disabled LoRAs are not offered; a second sync adds nothing and keeps the admin's settings.
    const styles = (await ctx.app.call('GET', '/api/art/loras', { token: ctx.user.token })).body.data;
    expect(styles.some((s: any) => s.loraName === 'ink_wash_sd15')).toBe(false);
    await admin.offer('ink_wash_sd15', { name: '水墨山水', styleGroup: '国风', triggerWords: ['shuimo'] });
    expect((await admin.sync()).newLoras).toBe(0);
    expect((await admin.list()).find((l) => l.loraName === 'ink_wash_sd15')).toMatchObject({
      name: '水墨山水',
      enabled: true,
      triggerWords: ['shuimo'],
    });
    // The model using a synced checkpoint takes its hash.
    const modelId = await addFamilyModel(ctx.app, ctx.admin, {
      modelName: 'SD 1.5 官方',
      engine: 'sdwebui',
      checkpoint: SD15,
      family: 'SD1.5',
    });
    await admin.sync();
    const row = await ctx.app.db
      .selectFrom('models')
      .select('hash')
      .where('id', '=', modelId)
      .executeTakeFirstOrThrow();
    expect(row.hash).toBe('6ce0161689');
    // The admin's model list names the backends that serve each model; a user's menu names none.
    const missing = await addFamilyModel(ctx.app, ctx.admin, {
      modelName: '没有后端的模型',
      engine: 'sdwebui',
      checkpoint: 'nowhere.safetensors',
      family: 'SD1.5',
    });
    // A1111 takes a checkpoint without its ` [hash]` too, as an admin may type it.
    const bare = await addFamilyModel(ctx.app, ctx.admin, {
      modelName: '不带哈希',
      engine: 'sdwebui',
      checkpoint: 'v1-5-pruned-emaonly.safetensors',
      family: 'SD1.5',
    });
    const models = (await admin.call('GET', '/api/art/model/menu?scope=all')).body.data.flatMap((g: any) => g.models);
    expect(models.find((m: any) => m.id === modelId).backends).toEqual(['A1111 甲']);
    expect(models.find((m: any) => m.id === bare).backends).toEqual(['A1111 甲']);
    expect(models.find((m: any) => m.id === missing).backends).toEqual([]);
    expect(models.find((m: any) => m.engine === 'builtin').backends).toEqual(['内置演示引擎']);
    const userMenu = await ctx.app.call('GET', '/api/art/model/menu', { token: ctx.user.token });
    expect(userMenu.body.data.flatMap((g: any) => g.models).some((m: any) => 'backends' in m)).toBe(false);
  });

  it('gives imported models the family their base model names', async () => {
    const backendId = (await admin.call('GET', '/api/admin/backends')).body.data.find(
      (b: any) => b.name === 'A1111 甲',
    ).id;
    const group = await admin.call('POST', '/api/admin/model-groups', { name: '导入' });
    const imported = await admin.call('POST', '/api/admin/models/import', {
      backendId,
      groupId: group.body.data.id,
      checkpoints: ['anything-v5.safetensors [7f96a1a9ca]'],
      baseModel: 'SD 1.5',
      enabled: true,
    });
    expect(imported.body.code, imported.body.msg).toBe(0);
    const menu = (await admin.call('GET', '/api/art/model/menu?scope=all')).body.data;
    const model = menu.find((g: any) => g.id === group.body.data.id).models[0];
    expect(model).toMatchObject({ baseModel: 'SD 1.5', family: 'SD1.5', access: { planIds: [] }, locked: false });
  });

  it('leaves one row per asset and LoRA when two syncs run at once', async () => {
    await Promise.all([admin.sync(), admin.sync(), admin.sync()]);
    const assets = await ctx.app.db.selectFrom('backend_assets').select(['backend_id', 'kind', 'title']).execute();
    const keys = assets.map((a) => `${a.backend_id}|${a.kind}|${a.title}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(assets.filter((a) => a.kind === 'lora')).toHaveLength(8);
    const loras = await ctx.app.db.selectFrom('loras').select(['engine', 'lora_name']).execute();
    expect(new Set(loras.map((l) => `${l.engine}|${l.lora_name}`)).size).toBe(loras.length);
    expect(loras).toHaveLength(8);
  });

  it('creates, changes and deletes a LoRA, refusing a duplicate backend name and a default outside the range', async () => {
    const body = {
      name: '赛博霓虹',
      loraName: 'pony_neon_v2',
      engine: 'sdwebui',
      styleGroup: '潮流',
      family: 'Pony',
      triggerWords: ['neon'],
      defaultWeight: 0.6,
      minWeight: 0.2,
      maxWeight: 1,
    };
    const created = await admin.call('POST', '/api/admin/loras', body);
    expect(created.body).toMatchObject({ code: 0, data: { ...body, enabled: true, access: { planIds: [] } } });
    const again = await admin.call('POST', '/api/admin/loras', body);
    expect(again.body).toMatchObject({ code: -1, msg: '已有后端 LoRA 名为「pony_neon_v2」的风格' });
    const bad = await admin.call('POST', '/api/admin/loras', { ...body, loraName: 'x', defaultWeight: 1.2 });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('默认权重须在最小权重和最大权重之间');
    const id = created.body.data.id;
    const changed = await admin.call('PUT', `/api/admin/loras/${id}`, { ...body, name: '霓虹夜色', enabled: false });
    expect(changed.body.data).toMatchObject({ name: '霓虹夜色', enabled: false });
    expect((await admin.call('DELETE', `/api/admin/loras/${id}`)).body.code).toBe(0);
    expect((await admin.call('DELETE', `/api/admin/loras/${id}`)).body).toMatchObject({ msg: 'LoRA 风格不存在' });
  });

  it('shows models with family and access, locked for users without the plan but never for admins', async () => {
    const plans = (await ctx.app.call('GET', '/api/account/combo/store', { token: ctx.user.token })).body.data.plans;
    const plan = plans[1];
    await addFamilyModel(ctx.app, ctx.admin, {
      modelName: 'SDXL 专业',
      engine: 'builtin',
      checkpoint: 'builtin-realistic',
      family: 'SDXL',
      access: { planIds: [plan.id] },
    });
    const find = (menu: any[]) => menu.flatMap((g) => g.models).find((m: any) => m.modelName === 'SDXL 专业');
    const mine = (await ctx.app.call('GET', '/api/art/model/menu?scope=enabled', { token: ctx.user.token })).body.data;
    expect(find(mine)).toMatchObject({
      family: 'SDXL',
      access: { planIds: [plan.id] },
      locked: true,
      unlockHint: `购买「${plan.name}」后可用`,
    });
    const admins = (await ctx.app.call('GET', '/api/art/model/menu?scope=all', { token: ctx.admin })).body.data;
    expect(find(admins)).toMatchObject({ locked: false, unlockHint: null });
  });
  it('forgets what a backend reported when the backend is removed', async () => {
    const id = await admin.register('临时后端', 'comfyui', comfy.url);
    await admin.sync();
    const rows = () => ctx.app.db.selectFrom('backend_assets').select('title').where('backend_id', '=', id).execute();
    expect((await rows()).length).toBeGreaterThan(0);
    expect((await admin.call('DELETE', `/api/admin/backends/${id}`)).body.code).toBe(0);
    expect(await rows()).toEqual([]);
    const synced = await ctx.app.db
      .selectFrom('backend_syncs')
      .select('backend_id')
      .where('backend_id', '=', id)
      .execute();
    expect(synced).toEqual([]);
  });
});
