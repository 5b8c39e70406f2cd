import type { Insertable, Selectable } from 'kysely';
import { countRows } from '../../platform/db/count.js';
import type { Database, DbKind } from '../../platform/db/database.js';
import type { ApiKeyTable } from '../../platform/db/schema.js';

export type ApiKeyRow = Selectable<ApiKeyTable>;

export class ApiKeyRepository {
  constructor(
    private readonly db: Database,
    private readonly dbKind: DbKind,
  ) {}

  listLive(userId: string): Promise<ApiKeyRow[]> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  /**
   * Inserts the key while its user holds fewer than `max` live keys. On PostgreSQL the user's row is locked first,
   * so parallel creates count one after another; SQLite runs one transaction at a time anyway.
   */
  insertWithin(row: Insertable<ApiKeyTable>, max: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if (this.dbKind === 'postgres') {
        await trx.selectFrom('users').select('id').where('id', '=', row.user_id).forUpdate().execute();
      }
      const live = await countRows(
        trx.selectFrom('api_keys').where('user_id', '=', row.user_id).where('revoked_at', 'is', null),
      );
      if (live >= max) return false;
      await trx.insertInto('api_keys').values(row).execute();
      return true;
    });
  }

  /** A live key with its owner, or undefined when unknown, revoked, or its owner is disabled. */
  findLive(keyHash: string) {
    return this.db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .select(['api_keys.id as id', 'api_keys.user_id as userId', 'api_keys.scopes as scopes'])
      .where('api_keys.key_hash', '=', keyHash)
      .where('api_keys.revoked_at', 'is', null)
      .where('users.disabled', '=', 0)
      .executeTakeFirst();
  }

  /** False when the user has no such live key. */
  async revoke(userId: string, id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Revokes every live key of the user; the ids revoked. */
  async revokeAllOfUser(userId: string, now: string): Promise<string[]> {
    const rows = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  async touch(id: string, now: string): Promise<void> {
    await this.db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute();
  }
}
