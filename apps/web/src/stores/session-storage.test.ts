import { type CurrentUser, STORAGE_KEYS } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { clearStoredSession, type KeyValueStorage, readStoredSession, writeStoredSession } from './session-storage';

function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & { dump(): Record<string, string> } {
  const map = new Map(Object.entries(initial));
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
    dump: () => Object.fromEntries(map),
  };
}

const user: CurrentUser = {
  userId: 'u1',
  account: null,
  nickname: '小画',
  avatar: null,
  mobile: '139****0000',
  hasPassword: true,
  invite: true,
  codeType: '01',
  inviteSkipped: false,
  accountRenamable: true,
  credits: 100,
  admin: 'false',
};

describe('stored session', () => {
  it('round-trips the five keys', () => {
    const storage = memoryStorage();
    writeStoredSession(storage, {
      token: 't1',
      isLoginSuccess: true,
      userData: user,
      isAdmin: 'true',
      permissions: ['admin'],
    });
    expect(readStoredSession(storage)).toEqual({
      token: 't1',
      isLoginSuccess: true,
      userData: user,
      isAdmin: 'true',
      permissions: ['admin'],
    });
    expect(storage.dump()[STORAGE_KEYS.authorization]).toBe('t1');
  });

  it('drops everything when there is no credential', () => {
    const storage = memoryStorage({ isLoginSuccess: 'true', isAdmin: 'true', getUserData: JSON.stringify(user) });
    expect(readStoredSession(storage)).toEqual({
      token: null,
      isLoginSuccess: false,
      userData: null,
      isAdmin: null,
      permissions: [],
    });
    expect(storage.dump()).toEqual({});
  });

  it('repairs values of an old or broken shape instead of failing', () => {
    const storage = memoryStorage({
      Authorization: 'Bearer abc',
      isLoginSuccess: 'yes',
      getUserData: JSON.stringify({ username: 'old-shape' }),
      isAdmin: '1',
      permissions: '{not json',
    });
    expect(readStoredSession(storage)).toEqual({
      token: 'abc',
      isLoginSuccess: false,
      userData: null,
      isAdmin: null,
      permissions: [],
    });
    expect(storage.dump()).toEqual({ Authorization: 'abc' });
  });

  it('clears exactly the five keys', () => {
    const storage = memoryStorage({ other: 'keep' });
    writeStoredSession(storage, { token: 't', isLoginSuccess: true, isAdmin: 'false', permissions: [] });
    clearStoredSession(storage);
    expect(storage.dump()).toEqual({ other: 'keep' });
  });
});
