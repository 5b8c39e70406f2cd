import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from './db/database.js';

/**
 * Signed, expiring links for private images (ARCHITECTURE § Contracts: "Image URLs of private works are
 * unguessable and expire"). An <img> cannot send a bearer token, so the link itself carries the permission:
 * `?e=<expiry, unix seconds>&s=<HMAC of path and expiry>`.
 */
export class UrlSigner {
  constructor(
    private readonly secret: Buffer,
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** `scope` binds a link to a state of what it opens: a link signed in another state does not verify. */
  private mac(path: string, expires: number, scope: string | undefined): Buffer {
    const text = scope === undefined ? `${path}\n${expires}` : `${path}\n${scope}\n${expires}`;
    return createHmac('sha256', this.secret).update(text).digest().subarray(0, 18);
  }

  sign(path: string, scope?: string): string {
    const expires = Math.floor((this.clock() + this.ttlMs) / 1000);
    return `${path}?e=${expires}&s=${this.mac(path, expires, scope).toString('base64url')}`;
  }

  /** A keyed hash of `text`: stable for the same text, and without this server's secret no way back to it. */
  fingerprint(text: string): string {
    return createHmac('sha256', this.secret).update(`fingerprint\n${text}`).digest('base64url');
  }

  /** True for a link this server signed for exactly this path (and scope) that has not expired. */
  verify(path: string, e: string | undefined, s: string | undefined, scope?: string): boolean {
    if (!e || !s || !/^\d{1,12}$/.test(e)) return false;
    const expires = Number(e);
    if (expires * 1000 < this.clock()) return false;
    const given = Buffer.from(s, 'base64url');
    const expected = this.mac(path, expires, scope);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/**
 * The signing secret: URL_SIGNING_SECRET when set, else one generated once and kept in the database, so
 * links survive restarts and every API process on the same database accepts them.
 */
export async function signingSecret(db: Database, configured: string | undefined): Promise<Buffer> {
  if (configured) return Buffer.from(configured, 'utf8');
  await db
    .insertInto('server_secrets')
    .values({ name: 'url_signing', value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', 'url_signing')
    .executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64url');
}
