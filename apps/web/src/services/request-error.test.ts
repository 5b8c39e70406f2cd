import { BizCode } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { hasCode, isRequestError, RequestError } from './request-error';

describe('RequestError', () => {
  it('carries code, status and data for callers that handle 405 and 10004', () => {
    const error = new RequestError({
      message: '账号未注册',
      code: BizCode.UNREGISTERED,
      status: 200,
      data: { userId: 'u1' },
      notified: false,
    });
    expect(isRequestError(error)).toBe(true);
    expect(hasCode(error, BizCode.UNREGISTERED)).toBe(true);
    expect(hasCode(error, BizCode.QUOTA_EXHAUSTED)).toBe(false);
    expect(error.data).toEqual({ userId: 'u1' });
    expect(error.message).toBe('账号未注册');
  });

  it('is not confused with other errors', () => {
    expect(isRequestError(new Error('x'))).toBe(false);
    expect(hasCode(null, 405)).toBe(false);
  });
});
