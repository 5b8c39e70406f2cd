import { BizCode, MSG } from '@huafang/contracts';

export function ok<T>(data: T, msg: string = MSG.success) {
  return { code: BizCode.OK, msg, data };
}

export function done(msg: string = MSG.success) {
  return { code: BizCode.OK, msg, data: null };
}
