import { randomBytes } from 'node:crypto';
import { type CreateInviteCodeBody, type InviteCodeItem, MSG, type Page, type PageQuery } from '@huafang/contracts';
import type { Selectable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { InviteCodeTable } from '../../platform/db/schema.js';
import { fail } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import type { Repositories } from '../../repositories.js';

const toItem = (row: Selectable<InviteCodeTable>): InviteCodeItem => ({
  id: row.id,
  code: row.code,
  codeType: row.code_type,
  maxUses: row.max_uses,
  usedCount: row.used_count,
  remark: row.remark,
  createdAt: row.created_at,
});

/** Readable codes without look-alike characters (no 0/O, 1/I/L). */
function generateCode(): string {
  const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
  return Array.from(randomBytes(8), (b) => alphabet[b % alphabet.length]).join('');
}

export class InviteService {
  constructor(private readonly repos: Repositories) {}

  async create(body: CreateInviteCodeBody, adminId: string | null): Promise<InviteCodeItem> {
    const code = (body.code ?? generateCode()).toUpperCase();
    if (await this.repos.invites.findByCode(code)) throw fail('邀请码已存在，请换一个');
    const row = {
      id: newId(),
      code,
      code_type: body.codeType,
      max_uses: body.maxUses,
      used_count: 0,
      remark: body.remark ?? null,
      created_by: adminId,
      created_at: nowIso(),
    };
    await this.repos.invites.insert(row);
    return toItem(row);
  }

  async page(query: PageQuery): Promise<Page<InviteCodeItem>> {
    const { rows, total } = await this.repos.invites.page(query);
    return { list: rows.map(toItem), current: query.current, pageSize: query.pageSize, total };
  }

  /**
   * Attaches an invite to the user, inside the caller's transaction `trx` (or one of its own): the user's claim
   * and the code's use are kept or rolled back together. Redeeming the code the user already holds is a no-op,
   * so the client may send it both with perfectInfo and invite/code.
   */
  async redeem(userId: string, rawCode: string, trx?: Executor): Promise<{ codeType: string }> {
    if (!trx) return this.repos.transaction((own) => this.redeem(userId, rawCode, own));
    const { invites, users } = this.repos;
    const invite = await invites.findByCode(rawCode.trim().toUpperCase(), trx);
    if (!invite) throw fail(MSG.inviteInvalid);
    if (!(await users.attachInvite(userId, invite, nowIso(), trx))) {
      const user = await users.findById(userId, trx);
      if (user?.invite_code_id === invite.id) return { codeType: invite.code_type };
      throw fail('你已使用过邀请码');
    }
    if (!(await invites.takeUse(invite.id, trx))) throw fail(MSG.inviteInvalid);
    return { codeType: invite.code_type };
  }

  /** The demo code of the embedded mode's new-user guide, once. */
  async seedDemo(code: string): Promise<void> {
    if (await this.repos.invites.findByCode(code)) return;
    await this.repos.invites.insert({
      id: newId(),
      code,
      code_type: '01',
      max_uses: 10_000,
      used_count: 0,
      remark: '演示邀请码（新手引导）',
      created_by: null,
      created_at: nowIso(),
    });
  }
}
