import type { AuthUser, TokenResolver } from '../../platform/auth/auth.plugin.js';
import type { Database } from '../../platform/db/database.js';
import { isoIn, newId, newSecret, nowIso, sha256 } from '../../platform/ids.js';
import { SessionRepository } from './session.repository.js';

export type SessionKind = 'access' | 'reset';

/** Random bearer tokens, stored only as their SHA-256, with expiry and revocation. */
export class SessionService implements TokenResolver {
  private readonly sessions: SessionRepository;

  constructor(
    db: Database,
    private readonly accessTtlMs: number,
  ) {
    this.sessions = new SessionRepository(db);
  }

  async issue(userId: string, kind: SessionKind = 'access', ttlMs = this.accessTtlMs): Promise<string> {
    const token = newSecret();
    await this.sessions.insert({
      id: newId(),
      user_id: userId,
      token_hash: sha256(token),
      kind,
      expires_at: isoIn(ttlMs),
      revoked_at: null,
      created_at: nowIso(),
    });
    return token;
  }

  async resolveAccessToken(token: string): Promise<AuthUser | null> {
    const row = await this.sessions.findLive(sha256(token), 'access', nowIso());
    return row ? { id: row.userId, isAdmin: row.isAdmin === 1, sessionId: row.sessionId } : null;
  }

  /** Consumes a reset token: valid once. */
  async consumeResetToken(token: string): Promise<string | null> {
    const now = nowIso();
    const row = await this.sessions.findLive(sha256(token), 'reset', now);
    if (!row) return null;
    await this.sessions.revoke(row.sessionId, now);
    return row.userId;
  }

  revoke(sessionId: string) {
    return this.sessions.revoke(sessionId, nowIso());
  }

  revokeAllOfUser(userId: string) {
    return this.sessions.revokeAllOfUser(userId, nowIso());
  }

  deleteExpired() {
    return this.sessions.deleteExpired(nowIso());
  }
}
