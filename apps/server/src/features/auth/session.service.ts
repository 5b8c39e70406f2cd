import { LRUCache } from 'lru-cache';
import type { AuthUser, TokenResolver } from '../../platform/auth/auth.plugin.js';
import type { Database } from '../../platform/db/database.js';
import { isoIn, newId, newSecret, nowIso, sha256 } from '../../platform/ids.js';
import { SessionRepository } from './session.repository.js';

export type SessionKind = 'access' | 'reset';

/**
 * How long a checked token is trusted without asking the database again. Polled routes (generation progress)
 * then cost no query; revocations in this process clear the cache at once, another API process's within this.
 */
const RESOLVED_TTL_MS = 10_000;

/** Random bearer tokens, stored only as their SHA-256, with expiry and revocation. */
export class SessionService implements TokenResolver {
  private readonly sessions: SessionRepository;
  private readonly resolved = new LRUCache<string, AuthUser>({ max: 50_000, ttl: RESOLVED_TTL_MS });

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
    const hash = sha256(token);
    const cached = this.resolved.get(hash);
    if (cached) return cached;
    const row = await this.sessions.findLive(hash, 'access', nowIso());
    if (!row) return null;
    const user = { id: row.userId, isAdmin: row.isAdmin === 1, sessionId: row.sessionId };
    // Never trusted past the session's own expiry.
    const ttl = Math.min(RESOLVED_TTL_MS, Date.parse(row.expiresAt) - Date.now());
    if (ttl > 0) this.resolved.set(hash, user, { ttl });
    return user;
  }

  /** Drops cached tokens of a session or a user, so a revocation takes effect on the next request. */
  private forget(match: (user: AuthUser) => boolean): void {
    for (const [hash, user] of this.resolved.entries()) if (match(user)) this.resolved.delete(hash);
  }

  /** Consumes a reset token: valid once. */
  async consumeResetToken(token: string): Promise<string | null> {
    const now = nowIso();
    const row = await this.sessions.findLive(sha256(token), 'reset', now);
    if (!row) return null;
    await this.sessions.revoke(row.sessionId, now);
    return row.userId;
  }

  async revoke(sessionId: string): Promise<void> {
    this.forget((user) => user.sessionId === sessionId);
    await this.sessions.revoke(sessionId, nowIso());
  }

  /** Password change and reset: every token of the user stops working on its next request. */
  async revokeAllOfUser(userId: string): Promise<void> {
    this.forget((user) => user.id === userId);
    await this.sessions.revokeAllOfUser(userId, nowIso());
  }

  deleteExpired() {
    return this.sessions.deleteExpired(nowIso());
  }
}
