import { BizCode, MSG } from '@huafang/contracts';

export function ok<T>(data: T, msg: string = MSG.success) {
  return { code: BizCode.OK, msg, data };
}

export function done(msg: string = MSG.success) {
  return { code: BizCode.OK, msg, data: null };
}

/** The empty answer of a route whose one service call does the work: `async (req) => doneAfter(words.remove(ids))`. */
export async function doneAfter(work: Promise<void>, msg: string = MSG.success) {
  await work;
  return done(msg);
}
