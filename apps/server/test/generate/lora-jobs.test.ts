import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readPngText } from '../../src/engines/png-text.js';
import { type A1111Double, startA1111Double } from '../doubles/a1111-double.js';
import { type ComfyUiDouble, startComfyUiDouble } from '../doubles/comfyui-double.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { addFamilyModel, loraAdmin } from '../models/lora-helpers.js';
import { creditsOf, waitForEnd } from './generation-helpers.js';

const SD15 = 'v1-5-pruned-emaonly.safetensors [6ce0161689]';
const DREAMSHAPER = 'sd15/dreamshaper_8.safetensors';

describeServer('generate: LoRA styles through the queue to A1111, ComfyUI and the built-in engine', () => {
  const ctx = useTestApp({ admin: true, users: ['user'] });
  const admin = loraAdmin(
    () => ctx.app,
    () => ctx.admin,
  );
  const comfyOptions = { stepDelayMs: 2, loras: ['sd15/ink_wash.safetensors', 'sd15/paper.safetensors'] };
  let a1111: A1111Double;
  let comfy: ComfyUiDouble;
  let a1111Model: string;
  let comfyModel: string;
  let demoModel: string;
  const lora: Record<string, string> = {};
  beforeAll(async () => {
    a1111 = await startA1111Double({
      stepDelayMs: 2,
      loras: [
        { name: 'ink_wash_sd15', metadata: { ss_base_model_version: 'sd_v1', sshs_model_hash: 'abcdef1234567890' } },
      ],
    });
    comfy = await startComfyUiDouble(comfyOptions);
    await admin.register('A1111 甲', 'sdwebui', a1111.url);
    await admin.register('ComfyUI 乙', 'comfyui', comfy.url);
    await admin.sync();
    lora.a1111 = (await admin.offer('ink_wash_sd15', { name: '水墨山水', minWeight: 0, maxWeight: 1 })).id;
    lora.comfyInk = (await admin.offer('sd15/ink_wash.safetensors', { name: '水墨' })).id;
    lora.comfyPaper = (await admin.offer('sd15/paper.safetensors', { name: '宣纸' })).id;
    a1111Model = await addFamilyModel(ctx.app, ctx.admin, {
      modelName: 'SD 1.5 官方',
      engine: 'sdwebui',
      checkpoint: SD15,
      family: 'SD1.5',
    });
    comfyModel = await addFamilyModel(ctx.app, ctx.admin, {
      modelName: 'DreamShaper 8',
      engine: 'comfyui',
      checkpoint: DREAMSHAPER,
      family: 'SD1.5',
    });
    const menu = (await ctx.app.call('GET', '/api/art/model/menu?scope=enabled', { token: ctx.user.token })).body.data;
    demoModel = menu.flatMap((g: any) => g.models).find((m: any) => m.checkpoint === 'builtin-ink').id;
    const styles = (await ctx.app.call('GET', '/api/art/loras', { token: ctx.user.token })).body.data;
    for (const style of styles) lora[style.loraName] = style.id;
  });
  afterAll(async () => {
    await a1111.close();
    await comfy.close();
  });

  const words = (text: string) => [{ id: 'w', groupName: text, promptText: text, custom: '1' }];
  const submit = (parameters: object, prompt = 'lighthouse') =>
    ctx.app.call('POST', '/api/generate/task', {
      token: ctx.user.token,
      body: { templateId: null, promptGroup: words(prompt), negativePromptGroup: [], parameters },
    });
  const run = async (parameters: object, prompt?: string) => {
    const res = await submit(parameters, prompt);
    expect(res.body.code, res.body.msg).toBe(0);
    const { final } = await waitForEnd(ctx.app, ctx.user.token, res.body.data.generateId, 60_000);
    expect(final.status, final.message).toBe('succeeded');
    return final;
  };
  const storedParameters = async (workId: string) =>
    JSON.parse(
      (await ctx.app.db.selectFrom('works').select('parameters').where('id', '=', workId).executeTakeFirstOrThrow())
        .parameters,
    );
  const ledgerTotal = async () =>
    (await ctx.app.call('GET', '/api/account/credits/ledger?pageSize=100', { token: ctx.user.token })).body.data.total;

  it('sends a picked LoRA to A1111 as <lora:name:weight> prompt text and keeps it in the work', async () => {
    const final = await run({ modelId: a1111Model, steps: 3, seed: 5, loras: [{ loraId: lora.a1111, weight: 0.7 }] });
    const prompt = a1111.requestsTo('/sdapi/v1/txt2img').at(-1)!.body.prompt;
    expect(prompt).toBe('lighthouse, <lora:ink_wash_sd15:0.7>');
    expect(await storedParameters(final.images[0].workId)).toMatchObject({
      loras: [{ loraId: lora.a1111, weight: 0.7 }],
    });
  });

  it('chains one LoraLoader per LoRA between the checkpoint and its users in the ComfyUI graph', async () => {
    await run({
      modelId: comfyModel,
      steps: 3,
      seed: 9,
      width: 256,
      height: 256,
      loras: [
        { loraId: lora.comfyInk, weight: 0.6 },
        { loraId: lora.comfyPaper, weight: 1.2 },
      ],
    });
    const graph = comfy.prompts.at(-1)!.graph;
    const idOf = (type: string) => Object.keys(graph).filter((id) => graph[id]!.class_type === type);
    const [checkpoint] = idOf('CheckpointLoaderSimple');
    const [first, second] = idOf('LoraLoader');
    expect(graph[first!]!.inputs).toEqual({
      model: [checkpoint, 0],
      clip: [checkpoint, 1],
      lora_name: 'sd15/ink_wash.safetensors',
      strength_model: 0.6,
      strength_clip: 0.6,
    });
    expect(graph[second!]!.inputs).toMatchObject({
      model: [first, 0],
      clip: [first, 1],
      lora_name: 'sd15/paper.safetensors',
      strength_model: 1.2,
    });
    for (const id of idOf('CLIPTextEncode')) expect(graph[id]!.inputs.clip).toEqual([second, 1]);
    for (const id of idOf('KSampler')) expect(graph[id]!.inputs.model).toEqual([second, 0]);
  });

  it('fails a job whose LoRA left the ComfyUI server after the last sync, as the server refuses it, and refunds it', async () => {
    const credits = await creditsOf(ctx.app, ctx.user.token);
    comfyOptions.loras = ['sd15/ink_wash.safetensors'];
    try {
      const res = await submit({
        modelId: comfyModel,
        steps: 2,
        width: 256,
        height: 256,
        loras: [{ loraId: lora.comfyPaper, weight: 1 }],
      });
      expect(res.body.code, res.body.msg).toBe(0);
      const { final } = await waitForEnd(ctx.app, ctx.user.token, res.body.data.generateId, 60_000);
      expect(final.status).toBe('failed');
      expect(final.message).toContain("lora_name: 'sd15/paper.safetensors' not in");
    } finally {
      comfyOptions.loras = ['sd15/ink_wash.safetensors', 'sd15/paper.safetensors'];
    }
    expect(await creditsOf(ctx.app, ctx.user.token)).toBe(credits);
  });

  it('paints a demo LoRA visibly and pixel-identically on the built-in engine', async () => {
    const pixels = async (loras: object[]) => {
      const final = await run({ modelId: demoModel, steps: 4, seed: 21, width: 256, height: 256, loras });
      const file = await ctx.app.app.inject({ method: 'GET', url: final.images[0].url });
      return { raw: await sharp(file.rawPayload).raw().toBuffer(), text: readPngText(file.rawPayload).parameters };
    };
    const plain = await pixels([]);
    const neon = await pixels([{ loraId: lora.hf_neon, weight: 1 }]);
    const again = await pixels([{ loraId: lora.hf_neon, weight: 1 }]);
    expect(neon.raw.equals(again.raw)).toBe(true);
    expect(neon.raw.equals(plain.raw)).toBe(false);
    expect(neon.text).toContain('<lora:hf_neon:1>');
  });

  it('reads <lora:name:weight> typed in a custom prompt as a LoRA of the job, and names an unknown one', async () => {
    const final = await run(
      { modelId: demoModel, steps: 2, width: 256, height: 256 },
      'lighthouse <lora:hf_pastel:0.8>',
    );
    expect(await storedParameters(final.images[0].workId)).toMatchObject({
      loras: [{ loraId: lora.hf_pastel, weight: 0.8 }],
    });
    const work = await ctx.app.db
      .selectFrom('works')
      .select('prompt')
      .where('id', '=', final.images[0].workId)
      .executeTakeFirstOrThrow();
    expect(work.prompt).toBe('lighthouse');
    const unknown = await submit({ modelId: demoModel }, 'lighthouse <lora:nope:1>');
    expect(unknown.body).toMatchObject({ code: -1, msg: '提示词中的 LoRA「nope」不存在或未启用' });
  });

  it('refuses a LoRA no backend has, before charging anything', async () => {
    const created = await admin.call('POST', '/api/admin/loras', {
      name: '缺失风格',
      loraName: 'missing_lora',
      engine: 'sdwebui',
      styleGroup: '国风',
      family: 'SD1.5',
    });
    expect(created.body.code).toBe(0);
    const [credits, ledger] = [await creditsOf(ctx.app, ctx.user.token), await ledgerTotal()];
    const refused = await submit({ modelId: a1111Model, loras: [{ loraId: created.body.data.id, weight: 0.8 }] });
    expect(refused.body).toMatchObject({
      code: -1,
      msg: '没有可用的推理后端提供 LoRA「缺失风格」，请联系管理员同步模型',
    });
    expect(await creditsOf(ctx.app, ctx.user.token)).toBe(credits);
    expect(await ledgerTotal()).toBe(ledger);
  });

  it('refuses weights outside the range, a LoRA of another family and sizes outside the model family', async () => {
    const outOfRange = await submit({ modelId: a1111Model, loras: [{ loraId: lora.a1111, weight: 1.4 }] });
    expect(outOfRange.body).toMatchObject({ code: -1, msg: 'LoRA 风格「水墨山水」的权重须在 0 到 1 之间' });
    const otherEngine = await submit({ modelId: a1111Model, loras: [{ loraId: lora.hf_neon, weight: 0.8 }] });
    expect(otherEngine.body.msg).toBe('LoRA 风格「霓虹光影」不能用于模型「SD 1.5 官方」（推理引擎不同）');
    const xl = await addFamilyModel(ctx.app, ctx.admin, {
      modelName: '内置 XL',
      engine: 'builtin',
      checkpoint: 'builtin-anime',
      family: 'SDXL',
    });
    const family = await submit({ modelId: xl, loras: [{ loraId: lora.hf_neon, weight: 0.8 }] });
    expect(family.body.msg).toBe('LoRA 风格「霓虹光影」适用于 其他 模型，不能用于 SDXL 模型「内置 XL」');
    const small = await submit({ modelId: xl, width: 256, height: 512 });
    expect(small.body).toMatchObject({ code: -1, msg: 'SDXL 模型的宽和高须在 512 到 2048 之间，当前为 256×512' });
    const big = await submit({ modelId: a1111Model, width: 1280, height: 512 });
    expect(big.body.msg).toBe('SD1.5 模型的宽和高须在 256 到 1024 之间，当前为 1280×512');
  });
});
