import { describe, expect, it } from 'vitest';
import { isConnectionLost } from '../../src/platform/db/database.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isConnectionLost: which database failures are answered 数据库连接中断', () => {
  it('knows a server that ended, refused or timed out the connection', () => {
    expect(isConnectionLost(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionLost(withCode('terminating connection due to administrator command', '57P01'))).toBe(true);
    expect(isConnectionLost(withCode('the database system is starting up', '57P03'))).toBe(true);
    expect(isConnectionLost(withCode('connection failure', '08006'))).toBe(true);
    expect(isConnectionLost(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe(true);
    expect(isConnectionLost(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isConnectionLost(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
  });

  it('leaves query and rule failures to the general mapper', () => {
    expect(isConnectionLost(withCode('duplicate key value violates unique constraint', '23505'))).toBe(false);
    expect(isConnectionLost(withCode('canceling statement due to user request', '57014'))).toBe(false);
    expect(isConnectionLost(new Error('syntax error'))).toBe(false);
    expect(isConnectionLost('Connection terminated')).toBe(false);
  });
});
