import { BizCode, HTTP_STATUS_TEXT } from '@huafang/contracts';

/** What the request layer does with one answer from the server. */
export type Outcome =
  | { kind: 'ok'; data: unknown; msg: string }
  /** Body code 401 or HTTP 401: the session is over. */
  | { kind: 'unauthorized'; msg: string }
  /** A body code the caller handles itself (405 register, 10004 quota): no notice. */
  | { kind: 'handled'; code: number; msg: string; data: unknown }
  /** Body code -1 and other business failures: toast `msg` as an error. */
  | { kind: 'toast'; code: number; msg: string; data: unknown }
  /** Non-2xx status or an unreadable body: the 错误提示 notification with `description`. */
  | { kind: 'http'; status: number; code: number | null; description: string; data: unknown };

interface EnvelopeLike {
  code: number;
  msg: string;
  data: unknown;
}

const CALLER_HANDLED_CODES: ReadonlySet<number> = new Set([BizCode.UNREGISTERED, BizCode.QUOTA_EXHAUSTED]);

/** Body text shown when the server answered 2xx with something that is not our envelope. */
export const UNREADABLE_BODY_TEXT = '服务器返回了无法识别的数据，请稍后再试';
export const FALLBACK_FAIL_TEXT = '操作失败，请稍后再试';

export function asEnvelope(body: unknown): EnvelopeLike | null {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as Record<string, unknown>;
  if (typeof record.code !== 'number') return null;
  return { code: record.code, msg: typeof record.msg === 'string' ? record.msg : '', data: record.data };
}

/** Spec §8: the server's own message first, else the status table, else the browser's status text. */
export function pickHttpErrorText(status: number, statusText: string, body: unknown): string {
  const envelopeMsg = asEnvelope(body)?.msg.trim();
  if (envelopeMsg) return envelopeMsg;
  const tableText = HTTP_STATUS_TEXT[status];
  if (tableText) return tableText;
  if (statusText.trim()) return statusText;
  return `请求失败（${status}）`;
}

export function interpretResponse(status: number, statusText: string, body: unknown): Outcome {
  const envelope = asEnvelope(body);
  if (status === 401 || envelope?.code === BizCode.UNAUTHORIZED) {
    return { kind: 'unauthorized', msg: envelope?.msg ?? '' };
  }
  if (status < 200 || status >= 300) {
    return {
      kind: 'http',
      status,
      code: envelope?.code ?? null,
      description: pickHttpErrorText(status, statusText, body),
      data: envelope?.data ?? null,
    };
  }
  if (!envelope) {
    return { kind: 'http', status, code: null, description: UNREADABLE_BODY_TEXT, data: null };
  }
  if (envelope.code === BizCode.OK) return { kind: 'ok', data: envelope.data, msg: envelope.msg };
  if (CALLER_HANDLED_CODES.has(envelope.code)) {
    return { kind: 'handled', code: envelope.code, msg: envelope.msg, data: envelope.data };
  }
  return { kind: 'toast', code: envelope.code, msg: envelope.msg || FALLBACK_FAIL_TEXT, data: envelope.data };
}
