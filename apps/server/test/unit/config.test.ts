import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

describe('config: environment variables parsed once', () => {
  it('defaults to the embedded mode: port 3000, SQLite under ./data', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.database).toEqual({ kind: 'sqlite', file: path.resolve('./data/huafang.db') });
    expect(config.admin).toEqual({ account: 'admin', password: undefined });
  });

  it('switches to PostgreSQL when DATABASE_URL is a postgres URL', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/huafang' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@db:5432/huafang' });
  });

  it('trusts X-Forwarded-For only when told to', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
  });

  it('reads the backend address rules and refuses malformed ones', () => {
    expect(loadConfig({}).backendAllowedHosts).toEqual([]);
    expect(
      loadConfig({ BACKEND_ALLOWED_HOSTS: ' GPU.lan, *.gpu.example.com,10.0.0.0/8,::1 ' }).backendAllowedHosts,
    ).toEqual(['gpu.lan', '*.gpu.example.com', '10.0.0.0/8', '::1']);
    for (const bad of ['10.0.0.0/33', 'gpu.lan/8', 'http://gpu.lan', 'a b']) {
      expect(() => loadConfig({ BACKEND_ALLOWED_HOSTS: bad }), bad).toThrow(/BACKEND_ALLOWED_HOSTS/);
    }
  });

  it('refuses bad values with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });

  it('bounds the login protection: at most 20 failures before the lock, a lock of at most a day', () => {
    expect(loadConfig({ LOGIN_MAX_FAILURES: '20', LOGIN_LOCK_MINUTES: '1440' }).loginGuard).toEqual({
      delayAfter: 5,
      maxFailures: 20,
      lockMs: 1440 * 60_000,
    });
    expect(() => loadConfig({ LOGIN_MAX_FAILURES: '47' })).toThrow(
      'LOGIN_MAX_FAILURES: 最多 20 次（连续失败这么多次后锁定账号）',
    );
    expect(() => loadConfig({ LOGIN_LOCK_MINUTES: '100000' })).toThrow('LOGIN_LOCK_MINUTES: 最长 1440 分钟（一天）');
  });
});
