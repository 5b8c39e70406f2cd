import { z } from 'zod';
import { fail } from '../errors.js';

/** Where a keyset page starts: after the row with this sort value and id (the last one the client has). */
export type Keyset<At extends string | number> = { at: At; id: string };

export const CURSOR_REFUSED = '分页游标无效，请刷新列表后重试';

/** The opaque `nextCursor` of a page whose last row is `last`. */
export const cursorOf = (last: Keyset<string | number>) =>
  Buffer.from(JSON.stringify([last.at, last.id])).toString('base64url');

const shapes = {
  text: z.tuple([z.string().max(64), z.string().min(1).max(64)]),
  number: z.tuple([z.number(), z.string().min(1).max(64)]),
};

/** The keyset of a cursor whose sort value is `kind`; a 400 for one that was not handed out for this list. */
export function keysetOf(cursor: string, kind: 'text'): Keyset<string>;
export function keysetOf(cursor: string, kind: 'number'): Keyset<number>;
export function keysetOf(cursor: string, kind: 'text' | 'number'): Keyset<string | number> {
  try {
    const [at, id] = shapes[kind].parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return { at, id };
  } catch {
    throw fail(CURSOR_REFUSED, 400);
  }
}

/** The cursor after the last of `rows` when the page is full (more may follow), else null. */
export function nextCursor<Row>(rows: Row[], pageSize: number, keyOf: (row: Row) => Keyset<string | number>) {
  const last = rows.at(-1);
  return rows.length === pageSize && last ? cursorOf(keyOf(last)) : null;
}
