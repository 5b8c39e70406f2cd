import { randomBytes } from 'node:crypto';
import {
  API_KEY_MAX_PER_USER,
  API_KEY_PREFIX,
  type ApiKey,
  type ApiKeyCreated,
  type ApiKeyScope,
  type apiKeyCreateBodySchema,
  apiKeyScopeSchema,
} from '@huafang/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { ApiKeyCaller, ApiKeyResolver } from '../../platform/auth/auth.plugin.js';
import { type Broadcast, topic } from '../../platform/broadcast/broadcast.js';
import { fail, notFound } from '../../platform/errors.js';
import { newId, nowIso, sha256 } from '../../platform/ids.js';
import type { Repositories } from '../../repositories.js';
import { sessionsRevoked } from '../auth/session.service.js';
import type { ApiKeyRepository, ApiKeyRow } from './api-key.repository.js';

/** As long as a checked session token is trusted (session.service.ts): revocations clear it through the broadcast. */
const RESOLVED_TTL_MS = 10_000;
/** last_used_at is a day-to-day hint, not a log: written at most this often per key and process. */
const TOUCH_INTERVAL_MS = 60_000;
/** `hf_` and 32 random bytes in base64url (43 characters): never the shape of a 43-character session token. */
const KEY_PATTERN = /^hf_[A-Za-z0-9_-]{43}$/;
const SHOWN_CHARACTERS = 8;

/** Sent by every revocation of a key, so every API process stops accepting it on the next request. */
export const apiKeyRevoked = topic('api-keys.revoked', z.strictObject({ keyId: z.string().min(1).max(64) }));

const scopesOf = (json: string): ApiKeyScope[] => z.array(apiKeyScopeSchema).parse(JSON.parse(json));

function view(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: scopesOf(row.scopes),
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

/** 个人 API 密钥: created, listed and revoked by their owner; resolved for the auth guard like session tokens. */
export class ApiKeyService implements ApiKeyResolver {
  private readonly keys: ApiKeyRepository;
  private readonly resolved = new LRUCache<string, ApiKeyCaller>({ max: 10_000, ttl: RESOLVED_TTL_MS });
  /** Counts forgets: a lookup that read the database before one is not cached after it. */
  private forgets = 0;
  private readonly touched = new LRUCache<string, number>({ max: 10_000 });

  constructor(
    repos: Repositories,
    private readonly bus: Broadcast,
    private readonly log: FastifyBaseLogger,
  ) {
    this.keys = repos.apiKeys;
    bus.subscribe(apiKeyRevoked, ({ keyId }) => this.forget((key) => key.id === keyId));
    // A user disabled (or every session of theirs revoked) loses the cached keys too; the lookup checks `disabled`.
    bus.subscribe(sessionsRevoked, (revoked) => {
      if ('userId' in revoked) this.forget((key) => key.userId === revoked.userId);
    });
    bus.onGap(() => this.forget(() => true));
  }

  isApiKey(token: string): boolean {
    return KEY_PATTERN.test(token);
  }

  async list(userId: string): Promise<ApiKey[]> {
    return (await this.keys.listLive(userId)).map(view);
  }

  async create(userId: string, body: z.output<typeof apiKeyCreateBodySchema>): Promise<ApiKeyCreated> {
    const secret = randomBytes(32).toString('base64url');
    const key = `${API_KEY_PREFIX}${secret}`;
    const row: ApiKeyRow = {
      id: newId(),
      user_id: userId,
      name: body.name,
      key_hash: sha256(key),
      prefix: `${API_KEY_PREFIX}${secret.slice(0, SHOWN_CHARACTERS)}`,
      scopes: JSON.stringify(body.scopes),
      created_at: nowIso(),
      last_used_at: null,
      revoked_at: null,
    };
    if (!(await this.keys.insertWithin(row, API_KEY_MAX_PER_USER))) {
      throw fail(`最多可以创建 ${API_KEY_MAX_PER_USER} 个 API 密钥，请先删除不用的密钥`);
    }
    return { ...view(row), key };
  }

  /** The database first, then the broadcast: a process that hears of it and reads again sees it revoked. */
  async revoke(userId: string, keyId: string): Promise<void> {
    if (!(await this.keys.revoke(userId, keyId, nowIso()))) throw notFound('API 密钥不存在或已删除');
    await this.bus.publish(apiKeyRevoked, { keyId });
  }

  /**
   * A password change or reset: a key minted by whoever held the account (a stolen session) must not outlive the
   * recovery. The database first, then the broadcast, as for one key.
   */
  async revokeAllOfUser(userId: string): Promise<void> {
    for (const keyId of await this.keys.revokeAllOfUser(userId, nowIso())) {
      await this.bus.publish(apiKeyRevoked, { keyId });
    }
  }

  async resolveApiKey(token: string): Promise<ApiKeyCaller | null> {
    const hash = sha256(token);
    let key = this.resolved.get(hash);
    if (!key) {
      const forgetsBefore = this.forgets;
      const row = await this.keys.findLive(hash);
      if (!row) return null;
      key = { id: row.id, userId: row.userId, scopes: scopesOf(row.scopes) };
      // Not kept while a revocation could be missed, nor when one arrived while this row was being read.
      if (this.bus.live && forgetsBefore === this.forgets) this.resolved.set(hash, key);
    }
    this.touch(key.id);
    return key;
  }

  /** Records the use without holding the request; a failed write only leaves last_used_at older. */
  private touch(keyId: string): void {
    const now = Date.now();
    if (now - (this.touched.get(keyId) ?? 0) < TOUCH_INTERVAL_MS) return;
    this.touched.set(keyId, now);
    this.keys.touch(keyId, new Date(now).toISOString()).catch((err: unknown) => {
      this.log.warn({ err, apiKeyId: keyId }, 'api key last use not recorded');
    });
  }

  private forget(match: (key: ApiKeyCaller) => boolean): void {
    this.forgets += 1;
    for (const [hash, key] of this.resolved.entries()) if (match(key)) this.resolved.delete(hash);
  }
}
