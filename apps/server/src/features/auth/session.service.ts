import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { AuthUser, TokenResolver } from '../../platform/auth/auth.plugin.js';
import { type Broadcast, topic } from '../../platform/broadcast/broadcast.js';
import { isoIn, newId, newSecret, nowIso, sha256 } from '../../platform/ids.js';
import type { Repositories } from '../../repositories.js';
import type { SessionRepository } from './session.repository.js';

export const ACCOUNT_DISABLED = '账号已被禁用，请联系客服';

export type SessionKind = 'access' | 'reset';

/**
 * How long a checked token is trusted without asking the database again. Polled routes (generation progress)
 * then cost no query. A revocation clears it in every API process at once through the broadcast; this bounds
 * only what a lost broadcast could leave (Redis away while it was sent).
 */
const RESOLVED_TTL_MS = 10_000;

/** Sent by every revocation: one session (logout) or every session of a user (password changed or reset). */
export const sessionsRevoked = topic(
  'sessions.revoked',
  z.union([
    z.strictObject({ sessionId: z.string().min(1).max(64) }),
    z.strictObject({ userId: z.string().min(1).max(64) }),
  ]),
);

/** Random bearer tokens, stored only as their SHA-256, with expiry and revocation. */
export class SessionService implements TokenResolver {
  private readonly sessions: SessionRepository;
  /** Keyed by the token itself: a poll that hits it costs no hashing (the database keeps only the hash). */
  private readonly resolved = new LRUCache<string, AuthUser>({ max: 50_000, ttl: RESOLVED_TTL_MS });
  /** Counts forgets: a lookup that read the database before one is not cached after it. */
  private forgets = 0;

  constructor(
    repos: Repositories,
    private readonly accessTtlMs: number,
    private readonly bus: Broadcast,
  ) {
    this.sessions = repos.sessions;
    bus.subscribe(sessionsRevoked, (revoked) =>
      'sessionId' in revoked
        ? this.forget((user) => user.sessionId === revoked.sessionId)
        : this.forget((user) => user.id === revoked.userId),
    );
    bus.onGap(() => this.forget(() => true));
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

  recentAccessToken(token: string): AuthUser | undefined {
    return this.resolved.get(token);
  }

  async resolveAccessToken(token: string): Promise<AuthUser | null> {
    const cached = this.resolved.get(token);
    if (cached) return cached;
    const forgetsBefore = this.forgets;
    const row = await this.sessions.findLive(sha256(token), 'access', nowIso());
    if (!row) return null;
    const user = { id: row.userId, isAdmin: row.isAdmin === 1, sessionId: row.sessionId };
    // Never trusted past the session's own expiry, nor when a revocation could have been missed: while the
    // broadcast is down, or when one arrived while this row was being read (it may predate the revocation).
    const ttl = Math.min(RESOLVED_TTL_MS, Date.parse(row.expiresAt) - Date.now());
    if (ttl > 0 && this.bus.live && forgetsBefore === this.forgets) this.resolved.set(token, user, { ttl });
    return user;
  }

  /**
   * Why a refused token was refused, when the user should hear it: a stopped account (停用) is told so instead of
   * being sent to the login dialog as if the session had merely expired. Asked only for refused tokens.
   */
  async refusalOf(token: string): Promise<string | undefined> {
    return (await this.sessions.ownerDisabled(sha256(token))) ? ACCOUNT_DISABLED : undefined;
  }

  /** Drops cached tokens of a session or a user, so a revocation takes effect on the next request. */
  private forget(match: (user: AuthUser) => boolean): void {
    this.forgets += 1;
    for (const [token, user] of this.resolved.entries()) if (match(user)) this.resolved.delete(token);
  }

  /** Consumes a reset token: valid once. */
  async consumeResetToken(token: string): Promise<string | null> {
    const now = nowIso();
    const row = await this.sessions.findLive(sha256(token), 'reset', now);
    if (!row) return null;
    await this.sessions.revoke(row.sessionId, now);
    return row.userId;
  }

  /** Logout. The database first, then the broadcast: a process that hears of it and reads again sees it revoked. */
  async revoke(sessionId: string): Promise<void> {
    await this.sessions.revoke(sessionId, nowIso());
    await this.bus.publish(sessionsRevoked, { sessionId });
  }

  /** Password change and reset: every token of the user stops working on its next request, in every process. */
  async revokeAllOfUser(userId: string): Promise<void> {
    await this.sessions.revokeAllOfUser(userId, nowIso());
    await this.bus.publish(sessionsRevoked, { userId });
  }

  deleteExpired() {
    return this.sessions.deleteExpired(nowIso());
  }
}
