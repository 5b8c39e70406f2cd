import type { AccessRule } from '@huafang/contracts';
import { nowIso } from '../../platform/ids.js';
import type { Viewer } from '../template/template.service.js';
import type { LoraRepository } from './lora.repository.js';

export type Lock = { locked: boolean; unlockHint: string | null };
const OPEN: Lock = { locked: false, unlockHint: null };

/** Reads an access rule column; a malformed one opens to everyone rather than failing the menu. */
export function accessOf(text: string): AccessRule {
  try {
    const parsed = JSON.parse(text) as Partial<AccessRule>;
    return { planIds: Array.isArray(parsed.planIds) ? parsed.planIds.filter((id) => typeof id === 'string') : [] };
  } catch {
    return { planIds: [] };
  }
}

/**
 * Who may use a model or LoRA (docs/models.md): a rule without plans is everyone's; otherwise a user holding one of
 * its plans (a paid order, not wholly refunded, whose credits have not expired). Admins may use everything.
 */
export class PlanAccess {
  constructor(private readonly repo: LoraRepository) {}

  /** For one viewer: whether a rule locks it, and the hint that says how to unlock it. */
  async judge(viewer: Viewer): Promise<(rule: AccessRule) => Lock> {
    if (viewer.isAdmin) return () => OPEN;
    const [held, names] = await Promise.all([this.repo.heldPlanIds(viewer.id, nowIso()), this.repo.planNames()]);
    return (rule) => {
      if (rule.planIds.length === 0 || rule.planIds.some((id) => held.has(id))) return OPEN;
      const named = rule.planIds.flatMap((id) => {
        const name = names.get(id);
        return name ? [`「${name}」`] : [];
      });
      return {
        locked: true,
        unlockHint: named.length > 0 ? `购买${named.join('或')}后可用` : '暂未开放，请联系管理员',
      };
    };
  }
}
