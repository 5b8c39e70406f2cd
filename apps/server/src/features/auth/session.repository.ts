import type { Insertable } from 'kysely';
import type { Database } from '../../platform/db/database.js';
import type { SessionTable } from '../../platform/db/schema.js';

export class SessionRepository {
  constructor(private readonly db: Database) {}

  async insert(row: Insertable<SessionTable>): Promise<void> {
    await this.db.insertInto('sessions').values(row).execute();
  }

  /** A live session of the given kind with its user, or undefined when revoked, expired or disabled. */
  findLive(tokenHash: string, kind: string, now: string) {
    return this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.id as sessionId',
        'users.id as userId',
        'users.is_admin as isAdmin',
        'sessions.expires_at as expiresAt',
      ])
      .where('sessions.token_hash', '=', tokenHash)
      .where('sessions.kind', '=', kind)
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', now)
      .where('users.disabled', '=', 0)
      .executeTakeFirst();
  }

  /** Whether the user a token was issued to is stopped, whatever became of the token since. */
  async ownerDisabled(tokenHash: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select('users.disabled')
      .where('sessions.token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row?.disabled === 1;
  }

  async revoke(id: string, now: string): Promise<void> {
    await this.db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', id).execute();
  }

  async revokeAllOfUser(userId: string, now: string): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Expired rows are useless; dropping them keeps the table small. */
  async deleteExpired(now: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires_at', '<', now).execute();
  }
}
