/**
 * Every failed request rejects with this. `notified` tells callers the user has already seen a notice,
 * so they only add behaviour (open the register dialog on 405, the quota notice on 10004), never a second toast.
 */
export class RequestError extends Error {
  readonly code: number | null;
  readonly status: number;
  readonly data: unknown;
  readonly notified: boolean;

  constructor(init: { message: string; code: number | null; status: number; data?: unknown; notified: boolean }) {
    super(init.message);
    this.name = 'RequestError';
    this.code = init.code;
    this.status = init.status;
    this.data = init.data ?? null;
    this.notified = init.notified;
  }
}

export function isRequestError(error: unknown): error is RequestError {
  return error instanceof RequestError;
}

/** True for a failure with body code `code`, e.g. `hasCode(e, BizCode.UNREGISTERED)`. */
export function hasCode(error: unknown, code: number): error is RequestError {
  return isRequestError(error) && error.code === code;
}
