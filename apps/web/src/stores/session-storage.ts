import { adminFlagSchema, type CurrentUser, currentUserSchema, STORAGE_KEYS } from '@huafang/contracts';
import { z } from 'zod';

/** The part of `Storage` the session needs, so the rules below run against a fake in unit tests. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export type AdminFlag = z.infer<typeof adminFlagSchema>;

/** The five client-stored keys of spec §3 as typed values. */
export interface StoredSession {
  token: string | null;
  isLoginSuccess: boolean;
  userData: CurrentUser | null;
  isAdmin: AdminFlag | null;
  permissions: string[];
}

export const EMPTY_SESSION: StoredSession = {
  token: null,
  isLoginSuccess: false,
  userData: null,
  isAdmin: null,
  permissions: [],
};

const permissionsSchema = z.array(z.string());
const BEARER_PREFIX = /^Bearer\s+/i;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Reads the stored session and repairs it: a value of an old or broken shape is removed instead of crashing
 * the page, and values without a credential are dropped because they describe no session at all.
 */
export function readStoredSession(storage: KeyValueStorage): StoredSession {
  const rawToken = storage.getItem(STORAGE_KEYS.authorization)?.replace(BEARER_PREFIX, '').trim();
  if (!rawToken) {
    clearStoredSession(storage);
    return { ...EMPTY_SESSION };
  }
  if (rawToken !== storage.getItem(STORAGE_KEYS.authorization)) storage.setItem(STORAGE_KEYS.authorization, rawToken);

  const session: StoredSession = { ...EMPTY_SESSION, token: rawToken };

  const loginFlag = storage.getItem(STORAGE_KEYS.isLoginSuccess);
  if (loginFlag === 'true') session.isLoginSuccess = true;
  else if (loginFlag !== null) storage.removeItem(STORAGE_KEYS.isLoginSuccess);

  const userText = storage.getItem(STORAGE_KEYS.userData);
  if (userText !== null) {
    const user = currentUserSchema.safeParse(parseJson(userText));
    if (user.success) session.userData = user.data;
    else storage.removeItem(STORAGE_KEYS.userData);
  }

  const adminText = storage.getItem(STORAGE_KEYS.isAdmin);
  if (adminText !== null) {
    const admin = adminFlagSchema.safeParse(adminText);
    if (admin.success) session.isAdmin = admin.data;
    else storage.removeItem(STORAGE_KEYS.isAdmin);
  }

  const permissionsText = storage.getItem(STORAGE_KEYS.permissions);
  if (permissionsText !== null) {
    const permissions = permissionsSchema.safeParse(parseJson(permissionsText));
    if (permissions.success) session.permissions = permissions.data;
    else storage.removeItem(STORAGE_KEYS.permissions);
  }

  return session;
}

/** Writes the given fields; `null` removes a key. */
export function writeStoredSession(storage: KeyValueStorage, patch: Partial<StoredSession>): void {
  const put = (key: string, value: string | null) => {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, value);
  };
  if ('token' in patch) put(STORAGE_KEYS.authorization, patch.token ?? null);
  if ('isLoginSuccess' in patch) put(STORAGE_KEYS.isLoginSuccess, patch.isLoginSuccess ? 'true' : null);
  if ('userData' in patch) put(STORAGE_KEYS.userData, patch.userData ? JSON.stringify(patch.userData) : null);
  if ('isAdmin' in patch) put(STORAGE_KEYS.isAdmin, patch.isAdmin ?? null);
  if ('permissions' in patch) put(STORAGE_KEYS.permissions, JSON.stringify(patch.permissions ?? []));
}

export function clearStoredSession(storage: KeyValueStorage): void {
  for (const key of Object.values(STORAGE_KEYS)) storage.removeItem(key);
}

/** localStorage when the browser allows it; a throwaway memory store otherwise (private mode, tests). */
export function browserStorage(): KeyValueStorage {
  try {
    if (typeof window !== 'undefined' && window.localStorage) return window.localStorage;
  } catch {
    // Access to localStorage throws when the browser blocks site data; fall through to memory.
  }
  const memory = new Map<string, string>();
  return {
    getItem: (key) => memory.get(key) ?? null,
    setItem: (key, value) => void memory.set(key, value),
    removeItem: (key) => void memory.delete(key),
  };
}
