import { z } from 'zod';
import type { KeyValueStorage } from '../../stores/session-storage';

/**
 * What a guest was doing when an action asked them to log in, so that login (or sign-up) resumes it. Kept in
 * session storage: it survives the dialogs and a reload of the tab, and dies with the tab.
 */
const id = z.string().min(1).max(64);
export const pendingActionSchema = z.discriminatedUnion('kind', [
  /** A 精选模板 (or any template card): open it on /draw at that step. */
  z.object({ kind: z.literal('template'), templateId: id, stepKey: z.number().int().min(0).optional() }),
  /** The home page's prompt box: /chuangyi with the words typed. */
  z.object({ kind: z.literal('prompt'), prompt: z.string().max(2000) }),
  /** 做同款 on a public work. */
  z.object({ kind: z.literal('makeSame'), workId: id }),
  /** A page that needs login, opened by address (a shared or bookmarked link). */
  z.object({ kind: z.literal('visit'), path: z.string().startsWith('/').max(2000) }),
  /** Actions their page performs itself (useResumedAction): login returns to that page, which runs them. */
  z.object({ kind: z.literal('publish'), workId: id }),
  z.object({ kind: z.literal('favorite'), workId: id }),
  z.object({ kind: z.literal('like'), workId: id }),
]);
export type PendingAction = z.infer<typeof pendingActionSchema>;
export type PendingKind = PendingAction['kind'];
export type PageActionKind = 'publish' | 'favorite' | 'like';
export type PageAction = Extract<PendingAction, { kind: PageActionKind }>;

const recordSchema = z.object({
  action: pendingActionSchema,
  /** The address the guest was on (path and query). */
  from: z.string().startsWith('/').max(2000),
  at: z.number(),
  /** Login happened: the page at `from` may now run its action. */
  ready: z.boolean().default(false),
});
export type PendingRecord = z.infer<typeof recordSchema>;

export const PENDING_ACTION_KEY = 'hf.pendingAction';
/** Long enough to receive an SMS and sign up; a guest who went away does not have an old click replayed. */
export const PENDING_ACTION_TTL_MS = 30 * 60_000;

export function isPageAction(action: PendingAction): action is PageAction {
  return action.kind === 'publish' || action.kind === 'favorite' || action.kind === 'like';
}

/** Remembers the latest action asked for; an earlier one is replaced, as the guest changed their mind. */
export function savePendingAction(
  storage: KeyValueStorage,
  action: PendingAction,
  from: string,
  now = Date.now(),
): void {
  const record: PendingRecord = { action: pendingActionSchema.parse(action), from, at: now, ready: false };
  storage.setItem(PENDING_ACTION_KEY, JSON.stringify(record));
}

/** The remembered action, if any and still fresh; a broken or stale value is removed. */
export function peekPendingAction(storage: KeyValueStorage, now = Date.now()): PendingRecord | null {
  const text = storage.getItem(PENDING_ACTION_KEY);
  if (text === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const record = recordSchema.safeParse(parsed);
  if (!record.success || now - record.data.at > PENDING_ACTION_TTL_MS || record.data.at > now + 60_000) {
    storage.removeItem(PENDING_ACTION_KEY);
    return null;
  }
  return record.data;
}

/** Reads and forgets the remembered action: it runs once. */
export function takePendingAction(storage: KeyValueStorage, now = Date.now()): PendingRecord | null {
  const record = peekPendingAction(storage, now);
  storage.removeItem(PENDING_ACTION_KEY);
  return record;
}

/** After login: keeps a page's own action for that page, marked ready. */
export function handOverToPage(storage: KeyValueStorage, record: PendingRecord): void {
  storage.setItem(PENDING_ACTION_KEY, JSON.stringify({ ...record, ready: true }));
}

/** The page's action of `kind`, once login made it ready; taken so it runs once. */
export function takeReadyPageAction<K extends PageActionKind>(
  storage: KeyValueStorage,
  kind: K,
  now = Date.now(),
): Extract<PendingAction, { kind: K }> | null {
  const record = peekPendingAction(storage, now);
  if (!record?.ready || record.action.kind !== kind) return null;
  storage.removeItem(PENDING_ACTION_KEY);
  return record.action as Extract<PendingAction, { kind: K }>;
}

export function clearPendingAction(storage: KeyValueStorage): void {
  storage.removeItem(PENDING_ACTION_KEY);
}

/** The tab's session storage, or a memory stand-in where it is unavailable (private modes, tests). */
export function tabStorage(): KeyValueStorage {
  try {
    if (typeof sessionStorage !== 'undefined') return sessionStorage;
  } catch {
    // Access itself can throw when storage is disabled.
  }
  const map = new Map<string, string>();
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}
