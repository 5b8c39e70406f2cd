import {
  type AdminUserItem,
  type CurrentUser,
  maskMobile,
  type Page,
  type PerfectInfoBody,
  type UserStatus,
} from '@huafang/contracts';
import { hashPassword, verifyPassword } from '../../platform/auth/password.js';
import { fail, forbidden, notFound } from '../../platform/errors.js';
import { nowIso } from '../../platform/ids.js';
import type { Repositories } from '../../repositories.js';
import type { ApiKeyService } from '../api-keys/api-key.service.js';
import type { SessionService } from '../auth/session.service.js';
import type { SmsCodeService } from '../auth/sms-code.service.js';
import type { FileService } from '../files/file.service.js';
import type { InviteService } from '../invite/invite.service.js';
import type { SensitiveWordFilter } from '../moderation/sensitive-word-filter.js';
import type { UserRepository } from './user.repository.js';

const ACCOUNT_RENAMED = '账号只能修改一次，你已经修改过了';

export class UserService {
  private readonly users: UserRepository;

  constructor(
    private readonly repos: Repositories,
    private readonly sessions: SessionService,
    private readonly smsCodes: SmsCodeService,
    private readonly invites: InviteService,
    private readonly files: FileService,
    private readonly words: SensitiveWordFilter,
    private readonly apiKeys: ApiKeyService,
  ) {
    this.users = repos.users;
  }

  private async getOrFail(userId: string) {
    const user = await this.users.findById(userId);
    if (!user) throw notFound('用户不存在');
    return user;
  }

  /**
   * 停用 or 启用 an account (admins only). Stopping signs the user out at once in every process; an admin cannot
   * stop their own account or another admin's, so the site always keeps an admin who can sign in.
   */
  async setDisabled(adminId: string, userId: string, disabled: boolean): Promise<void> {
    const user = await this.getOrFail(userId);
    if (disabled && user.id === adminId) throw forbidden('不能停用自己的账号');
    if (disabled && user.is_admin === 1) throw forbidden('不能停用管理员账号');
    await this.users.update(user.id, { disabled: disabled ? 1 : 0, updated_at: nowIso() });
    if (disabled) await this.sessions.revokeAllOfUser(user.id);
  }

  /** 用户管理's list (admins only): mobiles masked. */
  async adminPage(query: { current: number; pageSize: number; keyword?: string }): Promise<Page<AdminUserItem>> {
    const { current, pageSize, keyword } = query;
    const { rows, total } = await this.users.page(query, keyword);
    return {
      current,
      pageSize,
      total,
      list: rows.map((row) => ({
        userId: row.id,
        account: row.account,
        nickname: row.nickname,
        mobile: row.mobile ? maskMobile(row.mobile) : null,
        admin: row.is_admin === 1,
        credits: row.credits,
        disabled: row.disabled === 1,
        createdAt: row.created_at,
      })),
    };
  }

  async status(userId: string): Promise<UserStatus> {
    const user = await this.getOrFail(userId);
    return { invite: user.invite_code_id !== null, codeType: user.code_type };
  }

  async current(userId: string): Promise<CurrentUser> {
    const user = await this.getOrFail(userId);
    return {
      userId: user.id,
      account: user.account,
      nickname: user.nickname,
      avatar: user.avatar_file_id ? this.files.urlOf(user.avatar_file_id) : null,
      mobile: user.mobile ? maskMobile(user.mobile) : null,
      hasPassword: user.password_hash !== null,
      invite: user.invite_code_id !== null,
      codeType: user.code_type,
      inviteSkipped: user.invite_skipped_at !== null,
      accountRenamable: user.account_renamed_at === null,
      credits: user.credits,
      admin: user.is_admin === 1 ? 'true' : 'false',
    };
  }

  /** Nickname, avatar and invite code together: all saved or, on any bad part, none. */
  async perfectInfo(userId: string, body: PerfectInfoBody): Promise<UserStatus> {
    await this.words.assertClean('nickname', body.nickname);
    if (body.avatar) await this.files.requireOwned(userId, body.avatar, '头像');
    await this.repos.transaction(async (trx) => {
      if (body.inviteCode) await this.invites.redeem(userId, body.inviteCode, trx);
      await this.users.update(
        userId,
        { nickname: body.nickname, ...(body.avatar ? { avatar_file_id: body.avatar } : {}), updated_at: nowIso() },
        trx,
      );
    });
    return this.status(userId);
  }

  async redeemInvite(userId: string, inviteCode: string): Promise<UserStatus> {
    await this.invites.redeem(userId, inviteCode);
    return this.status(userId);
  }

  /** 暂不填写 on the invite step: remembered on the user, so no device offers it again after login. */
  async skipInvite(userId: string): Promise<void> {
    await this.getOrFail(userId);
    await this.users.skipInvite(userId, nowIso());
  }

  /** The account name (used to log in) may be changed once; the old name is free again afterwards. */
  async renameAccount(userId: string, account: string): Promise<void> {
    const user = await this.getOrFail(userId);
    if (user.account_renamed_at !== null) throw fail(ACCOUNT_RENAMED);
    if (user.account === account) throw fail('新账号与当前账号相同');
    const outcome = await this.users.renameAccountOnce(userId, account, nowIso());
    if (outcome === 'used') throw fail(ACCOUNT_RENAMED);
    if (outcome === 'taken') throw fail('该账号已被注册');
  }

  async setPassword(userId: string, password: string): Promise<void> {
    const user = await this.getOrFail(userId);
    if (user.password_hash) throw fail('你已设置过密码，请使用修改密码');
    await this.users.update(userId, { password_hash: await hashPassword(password), updated_at: nowIso() });
  }

  /** Changing the password signs out every device, this one included, and revokes every personal API key. */
  async updatePassword(userId: string, oldPassword: string, newPassword: string): Promise<void> {
    const user = await this.getOrFail(userId);
    if (!user.password_hash) throw fail('你还没有设置密码，请先设置密码');
    if (!(await verifyPassword(user.password_hash, oldPassword))) throw fail('原密码错误');
    if (oldPassword === newPassword) throw fail('新密码不能与原密码相同');
    await this.users.update(userId, { password_hash: await hashPassword(newPassword), updated_at: nowIso() });
    // Sessions first: once they are gone everywhere, no session of a thief can mint a key the next line misses.
    await this.sessions.revokeAllOfUser(userId);
    await this.apiKeys.revokeAllOfUser(userId);
  }

  async updateNickname(userId: string, nickname: string): Promise<void> {
    await this.getOrFail(userId);
    await this.words.assertClean('nickname', nickname);
    await this.users.update(userId, { nickname, updated_at: nowIso() });
  }

  async updateAvatar(userId: string, fileId: string): Promise<{ avatar: string }> {
    await this.files.requireOwned(userId, fileId, '头像');
    await this.users.update(userId, { avatar_file_id: fileId, updated_at: nowIso() });
    return { avatar: this.files.urlOf(fileId) };
  }

  async bindMobile(userId: string, mobile: string, code: string): Promise<void> {
    const user = await this.getOrFail(userId);
    if (user.mobile) throw fail('你已绑定手机号，请先解绑');
    await this.smsCodes.verify(mobile, 'bind', code);
    const owner = await this.users.findByMobile(mobile);
    if (owner) throw fail('该手机号已被其他账号绑定');
    await this.users.update(userId, { mobile, updated_at: nowIso() });
  }

  /** Without a password the user could not log in again, so unbinding needs one. */
  async unbindMobile(userId: string, code: string): Promise<void> {
    const user = await this.getOrFail(userId);
    if (!user.mobile) throw fail('你还没有绑定手机号');
    if (!user.password_hash) throw fail('请先设置密码，再解绑手机号');
    await this.smsCodes.verify(user.mobile, 'unbind', code);
    await this.users.update(userId, { mobile: null, updated_at: nowIso() });
  }
}
