import type { Insertable, Selectable, Updateable } from 'kysely';
import { countRows, type PageRequest, pageRows } from '../../platform/db/count.js';
import type { Database, Executor } from '../../platform/db/database.js';
import type { UserTable } from '../../platform/db/schema.js';
import { newId } from '../../platform/ids.js';
import { ledgerStamp } from '../credits/credit.repository.js';

export type UserRow = Selectable<UserTable>;

/** A unique index refused the row: PostgreSQL's unique_violation, or SQLite's UNIQUE constraint. */
function isUniqueViolation(error: unknown): boolean {
  const { code } = error as { code?: unknown };
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export class UserRepository {
  constructor(private readonly db: Database) {}

  findById(id: string, trx: Executor = this.db) {
    return trx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByAccount(account: string) {
    return this.db.selectFrom('users').selectAll().where('account', '=', account).executeTakeFirst();
  }

  findByMobile(mobile: string) {
    return this.db.selectFrom('users').selectAll().where('mobile', '=', mobile).executeTakeFirst();
  }

  /** A new user; the credits a new account starts with open its ledger (注册赠送) in the same transaction. */
  async insert(row: Insertable<UserTable>, trx: Executor = this.db): Promise<void> {
    if (!trx.isTransaction) return this.db.transaction().execute((own) => this.insert(row, own));
    await trx.insertInto('users').values(row).execute();
    const credits = row.credits ?? 0;
    if (credits === 0) return;
    await trx
      .insertInto('credit_ledger')
      .values({
        id: newId(),
        user_id: row.id,
        delta: credits,
        balance: credits,
        reason: 'signup',
        source_type: null,
        source_id: null,
        remark: null,
        created_at: ledgerStamp(),
      })
      .execute();
  }

  async update(id: string, changes: Updateable<UserTable>, trx: Executor = this.db): Promise<void> {
    await trx.updateTable('users').set(changes).where('id', '=', id).execute();
  }

  /**
   * Gives a user without an invite this one, in a single conditional statement: of two codes redeemed at once
   * only one finds the user without an invite. False when the user already holds one.
   */
  async attachInvite(
    id: string,
    invite: { id: string; code_type: string },
    now: string,
    trx: Executor = this.db,
  ): Promise<boolean> {
    const result = await trx
      .updateTable('users')
      .set({ invite_code_id: invite.id, code_type: invite.code_type, updated_at: now })
      .where('id', '=', id)
      .where('invite_code_id', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Records that the user closed the optional invite step; the first time stays. */
  async skipInvite(id: string, now: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ invite_skipped_at: now, updated_at: now })
      .where('id', '=', id)
      .where('invite_skipped_at', 'is', null)
      .execute();
  }

  /**
   * Changes the account name if it was never changed, in one conditional statement: of parallel renames of one
   * user the row lock lets exactly one through. 'taken' when another user holds the name (the unique index
   * decides, so two users racing for one name cannot both get it).
   */
  async renameAccountOnce(id: string, account: string, now: string): Promise<'renamed' | 'used' | 'taken'> {
    try {
      const result = await this.db
        .updateTable('users')
        .set({ account, account_renamed_at: now, updated_at: now })
        .where('id', '=', id)
        .where('account_renamed_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1 ? 'renamed' : 'used';
    } catch (error) {
      if (isUniqueViolation(error)) return 'taken';
      throw error;
    }
  }

  async countAdmins(): Promise<number> {
    return countRows(this.db.selectFrom('users').where('is_admin', '=', 1));
  }

  /** 用户管理's list: newest first, optionally only those whose account, nickname or mobile contains `keyword`. */
  page(page: PageRequest, keyword?: string) {
    let query = this.db.selectFrom('users');
    if (keyword) {
      const like = `%${keyword.replace(/[%_\\]/g, '\\$&')}%`;
      query = query.where((eb) =>
        eb.or([eb('account', 'like', like), eb('nickname', 'like', like), eb('mobile', 'like', like)]),
      );
    }
    return pageRows(query, page, (users) => users.selectAll().orderBy('created_at', 'desc').orderBy('id'));
  }
}
