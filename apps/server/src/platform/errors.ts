import { BizCode, MSG } from '@huafang/contracts';

/** A failure the user should read: thrown by services, turned into the envelope by the one error handler. */
export class BizError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly httpStatus = 200,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'BizError';
  }
}

/** A user-facing rule violation: body code -1. */
export const fail = (message: string, httpStatus = 200) => new BizError(BizCode.FAIL, message, httpStatus);
export const notFound = (message: string = MSG.recordNotFound) => new BizError(BizCode.NOT_FOUND, message, 404);
export const unauthorized = (message: string = MSG.unauthorized) => new BizError(BizCode.UNAUTHORIZED, message, 401);
export const forbidden = (message: string = MSG.forbidden) => new BizError(BizCode.FAIL, message, 403);
export const tooManyRequests = (message: string = MSG.tooManyRequests) => new BizError(BizCode.FAIL, message, 429);
