/** Short-lived cache of GET results; callers opt in per call, and login or logout clears it. */
export class RequestCache {
  private readonly entries = new Map<string, { expiresAt: number; value: unknown }>();

  get(key: string, now: number): { value: unknown } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return { value: entry.value };
  }

  set(key: string, value: unknown, ttlMs: number, now: number): void {
    if (ttlMs <= 0) return;
    this.entries.set(key, { expiresAt: now + ttlMs, value });
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

export type QueryParams = Record<string, string | number | boolean | null | undefined>;

/** Builds `url?a=1&b=2` with keys sorted, so the same query always hits the same cache entry. */
export function buildUrl(url: string, params?: QueryParams): string {
  if (!params) return url;
  const search = new URLSearchParams();
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    if (value !== undefined && value !== null) search.append(key, String(value));
  }
  const query = search.toString();
  if (!query) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

/** The one cache every request shares. */
export const requestCache = new RequestCache();
