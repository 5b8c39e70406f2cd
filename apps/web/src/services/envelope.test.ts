import { HTTP_STATUS_TEXT } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { FALLBACK_FAIL_TEXT, interpretResponse, pickHttpErrorText, UNREADABLE_BODY_TEXT } from './envelope';

describe('interpretResponse', () => {
  it('resolves data only for body code 0', () => {
    expect(interpretResponse(200, 'OK', { code: 0, msg: 'ok', data: { a: 1 } })).toEqual({
      kind: 'ok',
      data: { a: 1 },
      msg: 'ok',
    });
  });

  it('toasts the message of body code -1', () => {
    expect(interpretResponse(200, 'OK', { code: -1, msg: '验证码错误', data: null })).toMatchObject({
      kind: 'toast',
      code: -1,
      msg: '验证码错误',
    });
  });

  it('falls back to a generic text when a failure has no message', () => {
    expect(interpretResponse(200, 'OK', { code: -1 })).toMatchObject({ kind: 'toast', msg: FALLBACK_FAIL_TEXT });
  });

  it('ends the session on body code 401 or HTTP 401', () => {
    expect(interpretResponse(200, 'OK', { code: 401, msg: '登录已失效' }).kind).toBe('unauthorized');
    expect(interpretResponse(401, 'Unauthorized', { code: 401, msg: 'x' }).kind).toBe('unauthorized');
    expect(interpretResponse(401, 'Unauthorized', 'plain text').kind).toBe('unauthorized');
  });

  it('leaves 405 and 10004 to the caller with their data', () => {
    expect(interpretResponse(200, 'OK', { code: 405, msg: '账号未注册', data: { userId: 'u1' } })).toEqual({
      kind: 'handled',
      code: 405,
      msg: '账号未注册',
      data: { userId: 'u1' },
    });
    expect(interpretResponse(200, 'OK', { code: 10004, msg: '额度不足' }).kind).toBe('handled');
  });

  it('turns non-2xx answers into one HTTP notice, preferring the envelope message', () => {
    expect(interpretResponse(400, 'Bad Request', { code: -1, msg: '手机号格式不正确' })).toMatchObject({
      kind: 'http',
      status: 400,
      code: -1,
      description: '手机号格式不正确',
    });
    expect(interpretResponse(502, 'Bad Gateway', '<html>')).toMatchObject({
      kind: 'http',
      description: HTTP_STATUS_TEXT[502],
    });
  });

  it('treats a 2xx body that is not an envelope as unreadable', () => {
    expect(interpretResponse(200, 'OK', '<!doctype html>')).toMatchObject({
      kind: 'http',
      description: UNREADABLE_BODY_TEXT,
    });
  });
});

describe('pickHttpErrorText', () => {
  it('uses the envelope msg, then the status table, then the status text', () => {
    expect(pickHttpErrorText(429, 'Too Many Requests', { code: 429, msg: '操作过于频繁，请稍后再试' })).toBe(
      '操作过于频繁，请稍后再试',
    );
    expect(pickHttpErrorText(404, 'Not Found', null)).toBe(HTTP_STATUS_TEXT[404]);
    expect(pickHttpErrorText(418, "I'm a teapot", { code: 418, msg: '  ' })).toBe("I'm a teapot");
    expect(pickHttpErrorText(499, '', null)).toBe('请求失败（499）');
  });
});
