import { MSG } from '@huafang/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InviteService } from '../../../src/features/invite/invite.service.js';
import { openServiceDb, type ServiceDb } from './service-db.js';

let ctx: ServiceDb;
let invites: InviteService;
beforeEach(async () => {
  ctx = await openServiceDb();
  invites = new InviteService(ctx.repos);
});
afterEach(() => ctx.close());

const usedCount = async (code: string) => (await ctx.repos.invites.findByCode(code))?.used_count;

describe('invite codes', () => {
  it('are stored upper-case, and a code already taken is refused', async () => {
    const item = await invites.create({ code: 'spring', codeType: '01', maxUses: 2 }, null);
    expect(item).toMatchObject({ code: 'SPRING', codeType: '01', maxUses: 2, usedCount: 0 });
    await expect(invites.create({ code: 'Spring', codeType: '02', maxUses: 1 }, null)).rejects.toThrow(
      '邀请码已存在，请换一个',
    );
  });

  it('give the user the code type and take one use, whatever the case and spaces typed', async () => {
    await invites.create({ code: 'SPRING', codeType: '02', maxUses: 2 }, null);
    const userId = await ctx.newUser();
    expect(await invites.redeem(userId, '  spring ')).toEqual({ codeType: '02' });
    expect(await ctx.repos.users.findById(userId)).toMatchObject({ code_type: '02' });
    expect(await usedCount('SPRING')).toBe(1);
  });

  it('refuse an unknown code', async () => {
    const userId = await ctx.newUser();
    await expect(invites.redeem(userId, 'NOPE')).rejects.toThrow(MSG.inviteInvalid);
    expect((await ctx.repos.users.findById(userId))?.invite_code_id).toBeNull();
  });

  it('are used up after their uses: the next user is refused and keeps no invite', async () => {
    await invites.create({ code: 'ONCE', codeType: '01', maxUses: 1 }, null);
    const [first, second] = [await ctx.newUser(), await ctx.newUser()];
    await invites.redeem(first, 'ONCE');
    await expect(invites.redeem(second, 'ONCE')).rejects.toThrow(MSG.inviteInvalid);
    // The refused user's claim was rolled back with the use it could not take.
    expect((await ctx.repos.users.findById(second))?.invite_code_id).toBeNull();
    expect(await usedCount('ONCE')).toBe(1);
  });

  it('redeem the code a user already holds as a no-op, and refuse a second code', async () => {
    await invites.create({ code: 'FIRST', codeType: '01', maxUses: 5 }, null);
    await invites.create({ code: 'OTHER', codeType: '02', maxUses: 5 }, null);
    const userId = await ctx.newUser();
    await invites.redeem(userId, 'FIRST');
    expect(await invites.redeem(userId, 'first')).toEqual({ codeType: '01' });
    expect(await usedCount('FIRST')).toBe(1);
    await expect(invites.redeem(userId, 'OTHER')).rejects.toThrow('你已使用过邀请码');
    expect(await usedCount('OTHER')).toBe(0);
  });

  it('join the caller’s transaction: a rollback there gives the use back', async () => {
    await invites.create({ code: 'SPRING', codeType: '01', maxUses: 1 }, null);
    const userId = await ctx.newUser();
    await ctx.repos
      .transaction(async (trx) => {
        await invites.redeem(userId, 'SPRING', trx);
        throw new Error('the profile failed to save');
      })
      .catch(() => undefined);
    expect(await usedCount('SPRING')).toBe(0);
    expect((await ctx.repos.users.findById(userId))?.invite_code_id).toBeNull();
  });

  it('list a page at a time with the total', async () => {
    for (const code of ['AAAA', 'BBBB', 'CCCC']) await invites.create({ code, codeType: '01', maxUses: 1 }, null);
    const page = await invites.page({ current: 1, pageSize: 2 });
    expect(page.total).toBe(3);
    expect(page.list).toHaveLength(2);
  });
});
