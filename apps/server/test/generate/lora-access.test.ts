import { beforeAll, expect, it } from 'vitest';
import { AlipayDouble } from '../doubles/alipay-double.js';
import { describeServer } from '../helpers/suite.js';
import { addFamilyModel, loraAdmin } from '../models/lora-helpers.js';
import { useAlipayApp } from '../payments/alipay-app.js';
import { type StorePlan, storeBuyer } from '../payments/store-buyer.js';
import { creditsOf, waitForEnd } from './generation-helpers.js';

/** Who may use a model or LoRA: a plan's buyers, once paid (through Alipay's double), and admins always. */
describeServer('generate: models and LoRAs only for the plans that allow them', () => {
  const double = new AlipayDouble();
  const { ctx } = useAlipayApp(double);
  const shop = storeBuyer(() => ctx.app, 'alipay');
  const admin = loraAdmin(
    () => ctx.app,
    () => ctx.admin,
  );
  let pro: StorePlan;
  let loraId: string;
  let modelId: string;
  let openModel: string;
  beforeAll(async () => {
    pro = (await shop.store()).plans[1]!;
    loraId = (await admin.offer('hf_sepia', { access: { planIds: [pro.id] } })).id;
    modelId = await addFamilyModel(ctx.app, ctx.admin, {
      modelName: '专业写实',
      engine: 'builtin',
      checkpoint: 'builtin-realistic',
      family: '其他',
      access: { planIds: [pro.id] },
    });
    openModel = await addFamilyModel(ctx.app, ctx.admin, {
      modelName: '公开模型',
      engine: 'builtin',
      checkpoint: 'builtin-anime',
      family: '其他',
    });
  });

  const submit = (token: string, parameters: object) =>
    ctx.app.call('POST', '/api/generate/task', {
      token,
      body: {
        templateId: null,
        promptGroup: [{ id: 'w', groupName: '灯塔', promptText: 'lighthouse', custom: '1' }],
        negativePromptGroup: [],
        parameters: { steps: 2, width: 256, height: 256, ...parameters },
      },
    });
  it('refuses a locked LoRA and model with the unlock hint and charges nothing, then allows them once bought', async () => {
    const hint = `购买「${pro.name}」后可用`;
    const { buyer, orderId, action } = await shop.order(pro, 'desktop');
    if (action.kind !== 'redirect') throw new Error(`Alipay answered ${action.kind}`);
    expect((await fetch(action.url)).status).toBe(200);
    const styles = (await ctx.app.call('GET', '/api/art/loras', { token: buyer.token })).body.data;
    expect(styles.find((s: any) => s.id === loraId)).toMatchObject({ locked: true, unlockHint: hint });
    const before = await creditsOf(ctx.app, buyer.token);
    const lockedLora = await submit(buyer.token, { modelId: openModel, loras: [{ loraId, weight: 0.8 }] });
    expect(lockedLora.body).toMatchObject({ code: -1, msg: `LoRA 风格「复古胶片」${hint}` });
    const lockedModel = await submit(buyer.token, { modelId });
    expect(lockedModel.body).toMatchObject({ code: -1, msg: `模型「专业写实」${hint}` });
    expect(await creditsOf(ctx.app, buyer.token)).toBe(before);

    // Ordered but not paid: still locked.
    expect((await submit(buyer.token, { modelId })).body.code).toBe(-1);
    await double.pay(orderId);
    expect((await shop.orderOf(buyer, orderId)).order.status).toBe('paid');

    const unlocked = (await ctx.app.call('GET', '/api/art/loras', { token: buyer.token })).body.data;
    expect(unlocked.find((s: any) => s.id === loraId)).toMatchObject({ locked: false, unlockHint: null });
    const allowed = await submit(buyer.token, { modelId, loras: [{ loraId, weight: 0.8 }] });
    expect(allowed.body.code, allowed.body.msg).toBe(0);
    const { final } = await waitForEnd(ctx.app, buyer.token, allowed.body.data.generateId, 60_000);
    expect(final.status).toBe('succeeded');
  });

  it('lets admins use every model and LoRA', async () => {
    const res = await submit(ctx.admin, { modelId, loras: [{ loraId, weight: 0.8 }] });
    expect(res.body.code, res.body.msg).toBe(0);
    await waitForEnd(ctx.app, ctx.admin, res.body.data.generateId, 60_000);
  });
});
