import { describe, expect, it } from 'vitest';
import type { KeyValueStorage } from '../../stores/session-storage';
import {
  clearPendingAction,
  handOverToPage,
  PENDING_ACTION_KEY,
  PENDING_ACTION_TTL_MS,
  peekPendingAction,
  savePendingAction,
  takePendingAction,
  takeReadyPageAction,
} from './pending-action';

function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & { dump(): Record<string, string> } {
  const map = new Map(Object.entries(initial));
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
    dump: () => Object.fromEntries(map),
  };
}

const NOW = 1_800_000_000_000;

describe('the pending action of a guest asked to log in', () => {
  it('keeps a template, a typed prompt and a 做同款 with where the guest was, and gives each back once', () => {
    const storage = memoryStorage();
    for (const action of [
      { kind: 'template', templateId: 't1', stepKey: 1 },
      { kind: 'prompt', prompt: '水墨山水，云雾缭绕的远山' },
      { kind: 'makeSame', workId: 'w1' },
    ] as const) {
      savePendingAction(storage, action, '/omnibus?tab=hot', NOW);
      expect(takePendingAction(storage, NOW + 1000)).toEqual({
        action,
        from: '/omnibus?tab=hot',
        at: NOW,
        ready: false,
      });
      expect(takePendingAction(storage, NOW + 1000)).toBeNull();
    }
  });

  it('remembers only the latest action: a guest who changed their mind gets the last one', () => {
    const storage = memoryStorage();
    savePendingAction(storage, { kind: 'prompt', prompt: '橘猫' }, '/', NOW);
    savePendingAction(storage, { kind: 'template', templateId: 't2' }, '/', NOW + 5);
    expect(takePendingAction(storage, NOW + 10)?.action).toEqual({ kind: 'template', templateId: 't2' });
  });

  it('drops an action older than its lifetime, and one from the future', () => {
    const storage = memoryStorage();
    savePendingAction(storage, { kind: 'makeSame', workId: 'w1' }, '/omnibus', NOW);
    expect(peekPendingAction(storage, NOW + PENDING_ACTION_TTL_MS)).not.toBeNull();
    expect(takePendingAction(storage, NOW + PENDING_ACTION_TTL_MS + 1)).toBeNull();
    expect(storage.dump()).toEqual({});

    savePendingAction(storage, { kind: 'makeSame', workId: 'w1' }, '/omnibus', NOW + 3_600_000);
    expect(takePendingAction(storage, NOW)).toBeNull();
  });

  it('repairs a broken or foreign value instead of failing', () => {
    for (const text of ['{', '"x"', JSON.stringify({ action: { kind: 'launch' }, from: '/', at: NOW })]) {
      const storage = memoryStorage({ [PENDING_ACTION_KEY]: text });
      expect(takePendingAction(storage, NOW)).toBeNull();
      expect(storage.dump()).toEqual({});
    }
    const relative = memoryStorage();
    expect(() => savePendingAction(relative, { kind: 'visit', path: 'https://evil.example/' }, '/', NOW)).toThrow();
    expect(relative.dump()).toEqual({});
  });

  it('hands 发布 and 收藏 to their page only after login, once, and only to the kind asked for', () => {
    const storage = memoryStorage();
    savePendingAction(storage, { kind: 'favorite', workId: 'w9' }, '/omnibus', NOW);
    // Before login the page must not run it.
    expect(takeReadyPageAction(storage, 'favorite', NOW)).toBeNull();
    const record = takePendingAction(storage, NOW);
    if (!record) throw new Error('expected the record');
    handOverToPage(storage, record);
    expect(takeReadyPageAction(storage, 'publish', NOW)).toBeNull();
    expect(takeReadyPageAction(storage, 'favorite', NOW)).toEqual({ kind: 'favorite', workId: 'w9' });
    expect(takeReadyPageAction(storage, 'favorite', NOW)).toBeNull();
  });

  it('forgets on request', () => {
    const storage = memoryStorage();
    savePendingAction(storage, { kind: 'visit', path: '/draw?initImage=f1' }, '/draw?initImage=f1', NOW);
    clearPendingAction(storage);
    expect(peekPendingAction(storage, NOW)).toBeNull();
  });
});
