import type { ComboPlan, ComboStore, comboPlanBodySchema, PayChannelInfo } from '@huafang/contracts';
import type { z } from 'zod';
import { notFound } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import type { Repositories } from '../../repositories.js';
import type { CreditService } from '../credits/credit.service.js';
import type { ComboPlanRow } from './combo.repository.js';

type PlanBody = z.output<typeof comboPlanBodySchema>;

/** Without a payment channel the store says how to get a plan, and an admin then grants the credits. */
export const COMBO_STORE_NOTICE =
  '画坊暂未开通在线支付。选好套餐后，请通过右上角菜单中的「帮助与反馈」联系我们，管理员会为你的账号充值算力。';

function toPlan(row: ComboPlanRow): ComboPlan {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    credits: row.credits,
    priceFen: row.price_fen,
    purchasable: row.purchasable === 1,
    validityDays: row.validity_days,
    features: JSON.parse(row.features) as string[],
    recommended: row.recommended === 1,
    enabled: row.enabled === 1,
    sort: row.sort,
  };
}

/** 套餐商店 (GET /api/account/combo/store) and its admin configuration. */
export class ComboService {
  constructor(
    private readonly repos: Repositories,
    private readonly credits: CreditService,
    /** The payment channels configured (docs/payments.md); none: plans are granted by an admin. */
    private readonly channels: readonly PayChannelInfo[],
  ) {}

  async store(userId: string): Promise<ComboStore> {
    const [credits, rows] = await Promise.all([this.credits.balance(userId), this.repos.combos.list(true)]);
    const channels = [...this.channels];
    return { credits, notice: channels.length > 0 ? null : COMBO_STORE_NOTICE, channels, plans: rows.map(toPlan) };
  }

  async list(): Promise<ComboPlan[]> {
    return (await this.repos.combos.list(false)).map(toPlan);
  }

  private values(body: PlanBody) {
    return {
      name: body.name,
      description: body.description,
      credits: body.credits,
      price_fen: body.priceFen,
      purchasable: body.purchasable ? 1 : 0,
      validity_days: body.validityDays,
      features: JSON.stringify(body.features),
      recommended: body.recommended ? 1 : 0,
      enabled: body.enabled ? 1 : 0,
      sort: body.sort,
      updated_at: nowIso(),
    };
  }

  async create(body: PlanBody): Promise<ComboPlan> {
    const id = newId();
    await this.repos.combos.insert({ id, ...this.values(body), created_at: nowIso() });
    return this.get(id);
  }

  async update(id: string, body: PlanBody): Promise<ComboPlan> {
    await this.get(id);
    await this.repos.combos.update(id, this.values(body));
    return this.get(id);
  }

  async remove(id: string): Promise<void> {
    await this.get(id);
    await this.repos.combos.delete(id);
  }

  private async get(id: string): Promise<ComboPlan> {
    const row = await this.repos.combos.find(id);
    if (!row) throw notFound('套餐不存在');
    return toPlan(row);
  }

  /** Demo plans, once, so the store is not empty on a fresh install. */
  async seedPlans(): Promise<void> {
    if ((await this.repos.combos.list(false)).length > 0) return;
    for (const plan of DEMO_PLANS) await this.create(plan);
  }
}

const DEMO_PLANS: PlanBody[] = [
  {
    name: '体验版',
    description: '适合初次体验画坊的创作者',
    credits: 200,
    priceFen: 990,
    purchasable: true,
    validityDays: null,
    features: ['200 点算力，长期有效', '所有公开模板', '发布到灵感广场'],
    recommended: false,
    enabled: true,
    sort: 1,
  },
  {
    name: '创作版',
    description: '日常创作、电商出图都够用',
    credits: 1200,
    priceFen: 4900,
    purchasable: true,
    validityDays: 365,
    features: ['1200 点算力，一年内有效', '所有公开模板', '提示词历史与置顶'],
    recommended: true,
    enabled: true,
    sort: 2,
  },
  {
    name: '团队版',
    description: '多人协作与批量生成',
    credits: 6000,
    priceFen: 19900,
    purchasable: true,
    validityDays: 365,
    features: ['6000 点算力，一年内有效', '开放接口：API 密钥与 Webhook', '作品打包下载'],
    recommended: false,
    enabled: true,
    sort: 3,
  },
];
